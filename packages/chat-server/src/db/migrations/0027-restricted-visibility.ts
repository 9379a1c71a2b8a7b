import { SqliteAdapter, sql, type Kysely } from 'kysely';

/*
 * Restricted visibility (Stream's private messaging): a message whose `restricted_visibility` lists users exists for
 * them and its author alone (core/access/visibility.ts). The list is kept on the message as sent (JSON, null when the
 * message is for everyone), and as one row per user in `message_visibility`, so the visibility rule's SQL form asks
 * an index whether a viewer is among them, alike on SQLite and PostgreSQL. A trigger removes those rows with their
 * message, however it goes (a hard delete, a truncate, its channel or author deleted for good), so a message stored
 * later under the same id never inherits them.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
type AnyDb = Kysely<any>;

const isSqlite = (db: AnyDb) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('messages').addColumn('restricted_visibility', 'text').execute();
  await db.schema
    .createTable('message_visibility')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_visibility_pk', ['app_id', 'message_id', 'user_id'])
    .execute();
  if (isSqlite(db)) {
    await sql`create trigger messages_visibility_delete after delete on messages
      when old.restricted_visibility is not null begin
      delete from message_visibility where app_id = old.app_id and message_id = old.id; end`.execute(
      db,
    );
    return;
  }
  await sql`create or replace function drop_message_visibility() returns trigger language plpgsql as $$
begin
  delete from message_visibility where app_id = old.app_id and message_id = old.id;
  return old;
end $$`.execute(db);
  await sql`create trigger messages_visibility_delete after delete on messages for each row
    when (old.restricted_visibility is not null) execute function drop_message_visibility()`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  if (isSqlite(db)) await sql`drop trigger if exists messages_visibility_delete`.execute(db);
  else {
    await sql`drop trigger if exists messages_visibility_delete on messages`.execute(db);
    await sql`drop function if exists drop_message_visibility()`.execute(db);
  }
  await db.schema.dropTable('message_visibility').execute();
  await db.schema.alterTable('messages').dropColumn('restricted_visibility').execute();
}
