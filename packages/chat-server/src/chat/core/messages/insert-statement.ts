import { searchText } from '@daohuu/domain';
import type { Insertable, Kysely } from 'kysely';
import { reusableQuery, type ReusableQuery } from '../../../db/reusable-query.ts';
import type { Database, MessagesTable } from '../../../db/schema.ts';

type MessageInsert = Insertable<MessagesTable>;

// A send's row always has the same columns (a pinned send adds three): one compiled insert per column set.
const MAX_SHAPES = 32;
const byColumns = new Map<string, ReusableQuery<unknown[], unknown>>();

/** Inserts a message row like `insertInto('messages').values(row)`, without rebuilding the query each send. */
export async function insertMessageRow(
  executor: Kysely<Database>,
  stored: MessageInsert,
): Promise<void> {
  // The search index's folded words travel with the text (migration 0007).
  const row = { ...stored, search_text: searchText(stored.text ?? '') };
  const columns = (Object.keys(row) as (keyof MessageInsert)[]).filter(
    (column) => row[column] !== undefined,
  );
  const key = columns.join(',');
  let query = byColumns.get(key);
  if (!query) {
    query = reusableQuery<unknown[], unknown>(columns.length, (builder, ...values) =>
      builder
        .insertInto('messages')
        .values(
          Object.fromEntries(
            columns.map((column, index) => [column, values[index]]),
          ) as MessageInsert,
        ),
    );
    if (byColumns.size < MAX_SHAPES) byColumns.set(key, query);
  }
  await query.execute(executor, ...columns.map((column) => row[column]));
}
