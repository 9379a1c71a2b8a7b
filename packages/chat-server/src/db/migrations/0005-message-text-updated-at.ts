import type { Kysely } from 'kysely';

// When a message's text was last edited (Stream's `message_text_updated_at`, which makes the UI show "Edited").
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('message_text_updated_at', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('message_text_updated_at').execute();
}
