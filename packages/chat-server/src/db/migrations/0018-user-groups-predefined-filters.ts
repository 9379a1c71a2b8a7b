import type { Kysely } from 'kysely';

// User groups (mentionable sets of users, app-wide), the groups a message mentions, and predefined channel-query
// filters. A group's members and a message's group mentions go with their group or message; a mention of a group
// deleted since stays as an id and simply no longer resolves.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_groups')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // The name lower-cased, for the prefix search that powers `@` autocomplete.
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('team_id', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_groups_pk', ['app_id', 'id'])
    .execute();
  await db.schema
    .createIndex('user_groups_name_idx')
    .on('user_groups')
    .columns(['app_id', 'name_key', 'id'])
    .execute();
  await db.schema
    .createIndex('user_groups_created_idx')
    .on('user_groups')
    .columns(['app_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createTable('user_group_members')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_group_members_pk', ['app_id', 'group_id', 'user_id'])
    .addForeignKeyConstraint(
      'user_group_members_group_fk',
      ['app_id', 'group_id'],
      'user_groups',
      ['app_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createTable('message_group_mentions')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_group_mentions_pk', ['app_id', 'message_id', 'group_id'])
    .addForeignKeyConstraint(
      'message_group_mentions_message_fk',
      ['app_id', 'message_id'],
      'messages',
      ['app_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createTable('predefined_filters')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // JSON: the filter template, and the sort template or null.
    .addColumn('filter', 'text', (c) => c.notNull())
    .addColumn('sort', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('predefined_filters_pk', ['app_id', 'name'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('predefined_filters').execute();
  await db.schema.dropTable('message_group_mentions').execute();
  await db.schema.dropTable('user_group_members').execute();
  await db.schema.dropTable('user_groups').execute();
}
