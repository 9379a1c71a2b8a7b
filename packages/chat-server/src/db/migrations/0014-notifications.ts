import type { Kysely } from 'kysely';

// In-app notifications (chat/extensions/notifications): one row per thing a user is told of, newest first per
// user. Same portable types as 0001.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // mention | reply | reaction | added_to_channel | reminder_due | campaign
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('cid', 'text')
    .addColumn('message_id', 'text')
    .addColumn('parent_id', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .addPrimaryKeyConstraint('notifications_pk', ['app_id', 'id'])
    .execute();
  await db.schema
    .createIndex('notifications_by_user')
    .on('notifications')
    .columns(['app_id', 'user_id', 'created_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
}
