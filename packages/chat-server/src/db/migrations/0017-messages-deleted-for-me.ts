import type { Kysely } from 'kysely';

// Delete-for-me: a message one user removed from their own view only. The row goes with the message (hard delete,
// channel delete), and the (user, message) lookup the assembler makes per page is the primary key.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('messages_deleted_for_me')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('messages_deleted_for_me_pk', ['app_id', 'user_id', 'message_id'])
    .addForeignKeyConstraint(
      'messages_deleted_for_me_message_fk',
      ['app_id', 'message_id'],
      'messages',
      ['app_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('messages_deleted_for_me_message_idx')
    .on('messages_deleted_for_me')
    .columns(['app_id', 'message_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('messages_deleted_for_me').execute();
}
