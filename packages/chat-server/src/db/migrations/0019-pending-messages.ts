import { sql, type Kysely } from 'kysely';

// Pending messages (chat/extensions/pending-messages): a message held for moderation until the server commits it,
// visible to its author alone meanwhile (core/access/visibility.ts). `pending_metadata` keeps the sender's
// `pending_message_metadata` (a JSON object of strings). The partial index serves each author's pending messages
// per channel (`pending_messages` of channel states) without touching the committed rows.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('messages')
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('messages').addColumn('pending_metadata', 'text').execute();
  await db.schema
    .createIndex('messages_pending_idx')
    .on('messages')
    .columns(['app_id', 'user_id', 'cid', 'created_at'])
    .where(sql.ref('pending'), '=', 1)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('messages_pending_idx').execute();
  await db.schema.alterTable('messages').dropColumn('pending_metadata').execute();
  await db.schema.alterTable('messages').dropColumn('pending').execute();
}
