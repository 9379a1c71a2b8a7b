import type { Kysely } from 'kysely';

// User blocks and flags (reports) on messages and users. Same portable types as 0001.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_blocks')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('blocked_user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_blocks_pk', ['app_id', 'user_id', 'blocked_user_id'])
    .execute();

  await db.schema
    .createTable('flags')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // 'message:<id>' or 'user:<id>': one flag per reporter and target.
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('target_message_id', 'text')
    .addColumn('target_user_id', 'text')
    .addColumn('channel_cid', 'text')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('flags_pk', ['app_id', 'user_id', 'target'])
    .execute();
  // What moderators will page through: the newest flags of an app.
  await db.schema
    .createIndex('flags_created_idx')
    .on('flags')
    .columns(['app_id', 'created_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('flags').execute();
  await db.schema.dropTable('user_blocks').execute();
}
