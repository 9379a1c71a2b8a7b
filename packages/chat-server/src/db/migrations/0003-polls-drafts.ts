import type { Kysely } from 'kysely';

// Polls (with their options and votes/answers) and per-user message drafts. Same portable types as 0001.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('polls')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by_id', 'text', (c) => c.notNull())
    .addColumn('voting_visibility', 'text', (c) => c.notNull().defaultTo('public'))
    .addColumn('enforce_unique_vote', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_votes_allowed', 'integer')
    .addColumn('allow_answers', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_user_suggested_options', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_closed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    // The message carrying the poll (one at most) and its channel: where poll events go.
    .addColumn('message_id', 'text')
    .addColumn('cid', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('polls_pk', ['app_id', 'id'])
    .execute();
  await db.schema
    .createIndex('polls_created_by_idx')
    .on('polls')
    .columns(['app_id', 'created_by_id'])
    .execute();
  await db.schema.createIndex('polls_cid_idx').on('polls').columns(['app_id', 'cid']).execute();

  await db.schema
    .createTable('poll_options')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('poll_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('poll_options_pk', ['app_id', 'poll_id', 'id'])
    .execute();

  await db.schema
    .createTable('poll_votes')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('poll_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('option_id', 'text')
    .addColumn('answer_text', 'text')
    .addColumn('is_answer', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('poll_votes_pk', ['app_id', 'id'])
    .execute();
  await db.schema
    .createIndex('poll_votes_poll_idx')
    .on('poll_votes')
    .columns(['app_id', 'poll_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('drafts')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    // '' for the channel draft, the parent message id for a thread draft (part of the key, so never null).
    .addColumn('parent_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('drafts_pk', ['app_id', 'user_id', 'cid', 'parent_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('drafts').execute();
  await db.schema.dropTable('poll_votes').execute();
  await db.schema.dropTable('poll_options').execute();
  await db.schema.dropTable('polls').execute();
}
