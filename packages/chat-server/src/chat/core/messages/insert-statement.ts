import { searchText } from '@daohuu/domain';
import type { Insertable, Kysely } from 'kysely';
import { columnsInsert } from '../../../db/columns-insert.ts';
import type { Database, MessagesTable } from '../../../db/schema.ts';

type MessageInsert = Insertable<MessagesTable>;

// A send's row always has the same columns (a pinned send adds three): one compiled insert per column set.
const insertRow = columnsInsert('messages', 32);

/** Inserts a message row like `insertInto('messages').values(row)`, without rebuilding the query each send. */
export async function insertMessageRow(
  executor: Kysely<Database>,
  stored: MessageInsert,
): Promise<void> {
  // The search index's folded words travel with the text (migration 0007).
  const row = { ...stored, search_text: searchText(stored.text ?? '') };
  await insertRow(executor, row);
}
