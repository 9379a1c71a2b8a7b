import { SqliteAdapter, sql, type Kysely } from 'kysely';

/*
 * `channels.state_version` changes with every write to a channel's messages or members, whoever makes it: triggers
 * keep it, so no writer (core, extension, another node sharing the database) can forget. The channel query reads the
 * channel row anyway, and a node may reuse the message and member rows it loaded for that channel while the version
 * it read is the one they were loaded under (chat/core/channels/state-cache.ts).
 */

const TABLES = ['messages', 'members'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
type AnyDb = Kysely<any>;

const isSqlite = (db: AnyDb) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('channels')
    .addColumn('state_version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  if (isSqlite(db)) {
    for (const table of TABLES) {
      for (const [event, row] of [
        ['insert', 'new'],
        ['update', 'new'],
        ['delete', 'old'],
      ] as const) {
        await sql
          .raw(
            `create trigger ${table}_state_version_${event} after ${event} on ${table} begin ` +
              `update channels set state_version = state_version + 1 ` +
              `where app_id = ${row}.app_id and cid = ${row}.cid; end`,
          )
          .execute(db);
      }
    }
    return;
  }
  await sql`create or replace function bump_channel_state_version() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    update channels set state_version = state_version + 1 where app_id = old.app_id and cid = old.cid;
    return old;
  end if;
  update channels set state_version = state_version + 1 where app_id = new.app_id and cid = new.cid;
  return new;
end $$`.execute(db);
  for (const table of TABLES) {
    await sql
      .raw(
        `create trigger ${table}_state_version after insert or update or delete on ${table} ` +
          `for each row execute function bump_channel_state_version()`,
      )
      .execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (isSqlite(db)) {
    for (const table of TABLES)
      for (const event of ['insert', 'update', 'delete'])
        await sql.raw(`drop trigger if exists ${table}_state_version_${event}`).execute(db);
  } else {
    for (const table of TABLES)
      await sql.raw(`drop trigger if exists ${table}_state_version on ${table}`).execute(db);
    await sql`drop function if exists bump_channel_state_version()`.execute(db);
  }
  await db.schema.alterTable('channels').dropColumn('state_version').execute();
}
