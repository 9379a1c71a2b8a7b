import {
  LimitNode,
  SelectQueryNode,
  ValueNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * Writes a select's `LIMIT` as a literal on SQLite. SQLite's planner reads the value bound to `LIMIT ?` when it
 * plans a statement, so binding that parameter again marks the prepared statement expired and the next step
 * compiles it anew: every run of a cached statement with `LIMIT ?` paid a full prepare (10–40 µs against 3 µs for a
 * point lookup, more with more columns; `bench/chat-fanout` watches spent most of their SQLite time so). Only a
 * non-negative safe integer is inlined, so the text stays a number and nothing else reaches the SQL; the statement
 * cache then holds one statement per limit a query is asked with.
 *
 * Only the outermost select is looked at: walking the whole tree with Kysely's transformer rebuilds and freezes
 * every node of every query, which cost more than the re-prepares it saves. (Our subqueries with a limit are raw
 * SQL, which this does not touch.)
 */
export class SqliteLimitLiteralPlugin implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!SelectQueryNode.is(node) || !node.limit) return node;
    const limit = node.limit.limit;
    if (
      !ValueNode.is(limit) ||
      limit.immediate ||
      typeof limit.value !== 'number' ||
      !Number.isSafeInteger(limit.value) ||
      limit.value < 0
    )
      return node;
    return Object.freeze({
      ...node,
      limit: LimitNode.create(ValueNode.createImmediate(limit.value)),
    });
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
