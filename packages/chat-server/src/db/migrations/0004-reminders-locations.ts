import type { Kysely } from 'kysely';

// Message reminders / save-for-later bookmarks and shared (static or live) locations. Same portable types as 0001.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reminders')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    // null = a "save for later" bookmark.
    .addColumn('remind_at', 'text')
    // 1 once notification.reminder_due went out for the current remind_at.
    .addColumn('due_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reminders_pk', ['app_id', 'user_id', 'message_id'])
    .execute();
  // The scheduler's "next due reminder" lookup, across apps.
  await db.schema
    .createIndex('reminders_due_idx')
    .on('reminders')
    .columns(['due_sent', 'remind_at'])
    .execute();

  await db.schema
    .createTable('shared_locations')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_by_device_id', 'text', (c) => c.notNull())
    .addColumn('latitude', 'double precision', (c) => c.notNull())
    .addColumn('longitude', 'double precision', (c) => c.notNull())
    // null = a one-off (static) location.
    .addColumn('end_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('shared_locations_pk', ['app_id', 'message_id'])
    .execute();
  await db.schema
    .createIndex('shared_locations_user_idx')
    .on('shared_locations')
    .columns(['app_id', 'user_id', 'end_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shared_locations').execute();
  await db.schema.dropTable('reminders').execute();
}
