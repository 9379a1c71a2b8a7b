import type { Insertable, Kysely } from 'kysely';
import { reusableQuery, type ReusableQuery } from './reusable-query.ts';
import type { Database } from './schema.ts';

/**
 * `insertInto(table).values(row)` without building the query on every call, for rows that nearly always have the
 * same columns (a send, a first connect): one compiled insert per set of columns, the columns left undefined left
 * out as Kysely does. At most `maxShapes` sets are kept; a rarer one is compiled for its call only.
 */
export function columnsInsert<Table extends keyof Database & string>(
  table: Table,
  maxShapes: number,
): (executor: Kysely<Database>, row: Insertable<Database[Table]>) => Promise<void> {
  const byColumns = new Map<string, ReusableQuery<unknown[], unknown>>();
  return async (executor, row) => {
    const values = row as Record<string, unknown>;
    const columns = Object.keys(values).filter((column) => values[column] !== undefined);
    const key = columns.join(',');
    let query = byColumns.get(key);
    if (!query) {
      query = reusableQuery<unknown[], unknown>(columns.length, (builder, ...parameters) =>
        builder
          .insertInto(table)
          .values(
            Object.fromEntries(
              columns.map((column, index) => [column, parameters[index]]),
            ) as never,
          ),
      );
      if (byColumns.size < maxShapes) byColumns.set(key, query);
    }
    await query.execute(executor, ...columns.map((column) => values[column]));
  };
}
