import { SqliteAdapter, sql, type Kysely } from 'kysely';

/*
 * A capped text search ranks the newest 2,000 matches the viewer may read (extensions/search/service.ts). On
 * PostgreSQL the trigram index has no order, so for a common word every match was read and rechecked before the
 * newest could be chosen. This index lets extensions/search/pg-newest.ts walk an app's messages newest first and stop
 * at the cap. Its order is the candidates' order (created_at descending, then id ascending), so the walk needs no
 * sort. SQLite walks the FTS5 index in rowid order instead and does not need it.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
type AnyDb = Kysely<any>;

const isSqlite = (db: AnyDb) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: AnyDb): Promise<void> {
  if (isSqlite(db)) return;
  await sql`create index messages_app_newest_idx on messages (app_id, created_at desc, id)`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop index messages_app_newest_idx`.execute(db);
}
