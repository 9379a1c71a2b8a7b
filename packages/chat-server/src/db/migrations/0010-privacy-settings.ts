import type { Kysely } from 'kysely';

// A user's privacy settings (typing indicators, read and delivery receipts) as a JSON document; null when the user
// never set any, which means everything is on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('privacy_settings', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('privacy_settings').execute();
}
