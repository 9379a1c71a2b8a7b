import type { Kysely } from 'kysely';

// Bans (core/bans): one row per banned user and scope, the addresses IP bans need, and the expiry the ban flags
// already on users and members are read against. Same portable types as 0001.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bans')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // '' for an app-wide ban, else the channel's cid: a primary key column cannot be null.
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('shadow', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'text')
    .addColumn('banned_by_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires', 'text')
    .addPrimaryKeyConstraint('bans_pk', ['app_id', 'user_id', 'cid'])
    .execute();
  await db.schema
    .createIndex('bans_created_idx')
    .on('bans')
    .columns(['app_id', 'created_at'])
    .execute();
  await db.schema.createIndex('bans_ip_idx').on('bans').columns(['app_id', 'ip']).execute();
  await db.schema
    .createTable('connect_addresses')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('connect_addresses_pk', ['app_id', 'user_id'])
    .execute();
  await db.schema.alterTable('users').addColumn('ban_expires', 'text').execute();
  await db.schema.alterTable('members').addColumn('ban_expires', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('members').dropColumn('ban_expires').execute();
  await db.schema.alterTable('users').dropColumn('ban_expires').execute();
  await db.schema.dropTable('connect_addresses').execute();
  await db.schema.dropTable('bans').execute();
}
