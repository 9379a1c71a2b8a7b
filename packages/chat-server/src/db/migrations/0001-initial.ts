import type { Kysely } from 'kysely';

// Only schema-builder calls with types both SQLite and PostgreSQL accept: text, integer. No dialect branches here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('name_search', 'text')
    .addColumn('image', 'text')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('teams', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('banned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invisible', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_active', 'text')
    .addColumn('deactivated_at', 'text')
    .addColumn('deleted_at', 'text')
    .addPrimaryKeyConstraint('users_pk', ['app_id', 'id'])
    .execute();
  await db.schema
    .createIndex('users_name_idx')
    .on('users')
    .columns(['app_id', 'name_search'])
    .execute();

  await db.schema
    .createTable('channels')
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('created_by_id', 'text')
    .addColumn('name', 'text')
    .addColumn('name_search', 'text')
    .addColumn('image', 'text')
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('team', 'text')
    .addColumn('frozen', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cooldown', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('member_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('distinct_key', 'text')
    .addColumn('last_message_at', 'text')
    .addColumn('truncated_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .addPrimaryKeyConstraint('channels_pk', ['app_id', 'cid'])
    .execute();
  await db.schema
    .createIndex('channels_distinct_idx')
    .on('channels')
    .columns(['app_id', 'type', 'distinct_key'])
    .execute();
  await db.schema
    .createIndex('channels_last_message_idx')
    .on('channels')
    .columns(['app_id', 'last_message_at'])
    .execute();

  await db.schema
    .createTable('members')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('channel_role', 'text', (c) => c.notNull())
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('invited', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invite_accepted_at', 'text')
    .addColumn('invite_rejected_at', 'text')
    .addColumn('banned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shadow_banned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notifications_muted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hide_messages_before', 'text')
    .addColumn('pinned_at', 'text')
    .addColumn('archived_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('members_pk', ['app_id', 'cid', 'user_id'])
    .addForeignKeyConstraint(
      'members_channel_fk',
      ['app_id', 'cid'],
      'channels',
      ['app_id', 'cid'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('members_user_idx')
    .on('members')
    .columns(['app_id', 'user_id', 'cid'])
    .execute();

  await db.schema
    .createTable('messages')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parent_id', 'text')
    .addColumn('show_in_channel', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quoted_message_id', 'text')
    .addColumn('attachments', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('mentioned_users', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('silent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shadowed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pinned_at', 'text')
    .addColumn('pinned_by_id', 'text')
    .addColumn('pin_expires', 'text')
    .addColumn('reply_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_reply_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reaction_groups', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .addPrimaryKeyConstraint('messages_pk', ['app_id', 'id'])
    .addForeignKeyConstraint(
      'messages_channel_fk',
      ['app_id', 'cid'],
      'channels',
      ['app_id', 'cid'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('messages_channel_idx')
    .on('messages')
    .columns(['app_id', 'cid', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('messages_parent_idx')
    .on('messages')
    .columns(['app_id', 'parent_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('messages_pinned_idx')
    .on('messages')
    .columns(['app_id', 'cid', 'pinned_at'])
    .execute();

  await db.schema
    .createTable('reactions')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('score', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reactions_pk', ['app_id', 'message_id', 'user_id', 'type'])
    .addForeignKeyConstraint(
      'reactions_message_fk',
      ['app_id', 'message_id'],
      'messages',
      ['app_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('reactions_message_idx')
    .on('reactions')
    .columns(['app_id', 'message_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('reads')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('thread_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_read', 'text', (c) => c.notNull())
    .addColumn('last_read_message_id', 'text')
    .addColumn('unread_messages', 'integer')
    .addColumn('first_unread_message_id', 'text')
    .addColumn('last_delivered_at', 'text')
    .addColumn('last_delivered_message_id', 'text')
    .addPrimaryKeyConstraint('reads_pk', ['app_id', 'cid', 'user_id', 'thread_id'])
    .addForeignKeyConstraint(
      'reads_channel_fk',
      ['app_id', 'cid'],
      'channels',
      ['app_id', 'cid'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('reads_user_idx')
    .on('reads')
    .columns(['app_id', 'user_id', 'thread_id'])
    .execute();

  await db.schema
    .createTable('threads')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('parent_message_id', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('created_by_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('participant_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reply_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_message_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .addPrimaryKeyConstraint('threads_pk', ['app_id', 'parent_message_id'])
    .addForeignKeyConstraint(
      'threads_channel_fk',
      ['app_id', 'cid'],
      'channels',
      ['app_id', 'cid'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('threads_channel_idx')
    .on('threads')
    .columns(['app_id', 'cid'])
    .execute();

  await db.schema
    .createTable('thread_participants')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('parent_message_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_thread_message_at', 'text')
    .addPrimaryKeyConstraint('thread_participants_pk', ['app_id', 'parent_message_id', 'user_id'])
    .addForeignKeyConstraint(
      'thread_participants_thread_fk',
      ['app_id', 'parent_message_id'],
      'threads',
      ['app_id', 'parent_message_id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('thread_participants_user_idx')
    .on('thread_participants')
    .columns(['app_id', 'user_id', 'last_thread_message_at'])
    .execute();

  await db.schema
    .createTable('user_mutes')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires', 'text')
    .addPrimaryKeyConstraint('user_mutes_pk', ['app_id', 'user_id', 'target_id'])
    .execute();

  await db.schema
    .createTable('channel_mutes')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('cid', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires', 'text')
    .addPrimaryKeyConstraint('channel_mutes_pk', ['app_id', 'user_id', 'cid'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'channel_mutes',
    'user_mutes',
    'thread_participants',
    'threads',
    'reads',
    'reactions',
    'messages',
    'members',
    'channels',
    'users',
    'apps',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
