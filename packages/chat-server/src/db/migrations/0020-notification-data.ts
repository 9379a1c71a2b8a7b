import type { Kysely } from 'kysely';

// Notifications the product server creates itself ("Đột phá!" when a cultivator reaches a new realm) carry a small
// JSON object of their own (the realm's name), which no chat row holds. Null for every activity notification.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('data', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications').dropColumn('data').execute();
}
