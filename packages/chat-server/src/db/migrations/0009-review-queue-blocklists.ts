import type { Kysely } from 'kysely';

// The moderation review queue (one item per flagged message or user), the log of what moderators did to each item,
// and the app's word block lists. Same portable types as 0001.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  // Flags raised by the server itself (a block list match) rather than by a reporter.
  await db.schema
    .alterTable('flags')
    .addColumn('created_by_automod', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('review_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    // 'stream:chat:v1:message' or 'stream:user', as the client names them.
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('entity_creator_id', 'text', (c) => c.notNull())
    .addColumn('channel_cid', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('latest_moderator_action', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('review_items_entity_uq', ['app_id', 'entity_type', 'entity_id'])
    .execute();
  await db.schema
    .createIndex('review_items_created_idx')
    .on('review_items')
    .columns(['app_id', 'created_at'])
    .execute();

  // Append-only: nothing a moderator does is lost.
  await db.schema
    .createTable('moderation_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('action_type', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('moderation_actions_item_idx')
    .on('moderation_actions')
    .columns(['item_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('blocklists')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('word'))
    // A JSON array of lowercase words.
    .addColumn('words', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('blocklists_pk', ['app_id', 'name'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blocklists').execute();
  await db.schema.dropTable('moderation_actions').execute();
  await db.schema.dropTable('review_items').execute();
  await db.schema.alterTable('flags').dropColumn('created_by_automod').execute();
}
