import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { readDirectly } from './direct-read.ts';
import type { Database } from './schema.ts';

/**
 * A fixed-shape query built and compiled once per database, then run with new parameter values. Building a Kysely
 * query (immutable, frozen nodes) and compiling it costs more CPU than SQLite spends running a point lookup, and
 * the send path runs the same few queries on every message. Only for queries whose SQL text never depends on the
 * values (no `in` lists, no optional clauses): each parameter is a value slot, nothing else.
 */
export interface ReusableQuery<P extends readonly unknown[], R> {
  execute(executor: Kysely<Database>, ...params: P): Promise<R[]>;
}

// Stand-ins for the parameters while compiling: no real value contains a NUL followed by this marker.
const slotMarker = (index: number) => `\u0000reusable-query-slot-${index}`;

interface Compiled {
  query: CompiledQuery;
  /** For each compiled parameter, the index of the caller's parameter it takes, or -1 for a constant. */
  slots: number[];
}

export function reusableQuery<P extends readonly unknown[], R>(
  arity: P['length'],
  build: (executor: Kysely<Database>, ...params: P) => Compilable<R>,
): ReusableQuery<P, R> {
  // Keyed by the dialect adapter: a transaction shares its database's adapter, and each database compiles its own.
  const compiled = new WeakMap<object, Compiled>();

  function compile(executor: Kysely<Database>): Compiled {
    const markers = Array.from({ length: arity }, (_, index) => slotMarker(index));
    const query = build(executor, ...(markers as unknown as P)).compile();
    const slots = query.parameters.map((value) =>
      typeof value === 'string' ? markers.indexOf(value) : -1,
    );
    const used = new Set(slots);
    if (markers.some((_, index) => !used.has(index)))
      throw new Error('reusableQuery: every parameter must appear as a value in the query');
    return { query, slots };
  }

  return {
    async execute(executor, ...params) {
      const adapter = executor.getExecutor().adapter;
      let entry = compiled.get(adapter);
      if (!entry) {
        entry = compile(executor);
        compiled.set(adapter, entry);
      }
      const { query, slots } = entry;
      const parameters = query.parameters.map((value, index) =>
        slots[index] === -1 ? value : params[slots[index]!],
      );
      const compiledQuery = { ...query, parameters };
      const rows = readDirectly<R>(executor, compiledQuery);
      if (rows) return rows;
      const result = await executor.executeQuery<R>(compiledQuery);
      return result.rows;
    },
  };
}
