import {
  LimitNode,
  OperationNodeTransformer,
  ValueNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * Writes a query's `LIMIT` as a literal on SQLite. SQLite's planner reads the value bound to `LIMIT ?` when it plans
 * a statement, so binding that parameter again marks the prepared statement expired and the next step compiles it
 * anew: every run of a cached statement with `LIMIT ?` paid a full prepare (10–40 µs against 3 µs for a point
 * lookup, more with more columns; `bench/chat-fanout` watches spent most of their SQLite time so). Only a
 * non-negative safe integer is inlined, so the text stays a number and nothing else reaches the SQL; the statement
 * cache then holds one statement per limit a query is asked with.
 */
export class SqliteLimitLiteralPlugin implements KyselyPlugin {
  readonly #transformer = new LimitLiteralTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

class LimitLiteralTransformer extends OperationNodeTransformer {
  protected override transformLimit(node: LimitNode): LimitNode {
    const limit = node.limit;
    if (
      ValueNode.is(limit) &&
      !limit.immediate &&
      typeof limit.value === 'number' &&
      Number.isSafeInteger(limit.value) &&
      limit.value >= 0
    )
      return LimitNode.create(ValueNode.createImmediate(limit.value));
    return super.transformLimit(node);
  }
}
