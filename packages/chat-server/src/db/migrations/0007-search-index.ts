import { searchText } from '@daohuu/domain';
import { SqliteAdapter, sql, type Kysely } from 'kysely';

/*
 * Message search as people type Vietnamese (extensions/search/): `messages.search_text` holds the folded words of the
 * text (`searchText` in @daohuu/domain), written by the core with every insert and edit. SQLite indexes it with an
 * FTS5 table over that column, kept in step by triggers, so truncation, channel deletion (a cascade) and every other
 * delete stay covered without the writers knowing. PostgreSQL indexes it with a pg_trgm GIN index for LIKE, or,
 * where the extension cannot be created, leaves the column unindexed (the search still works, as a scan).
 */

const BATCH = 5000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
type AnyDb = Kysely<any>;

/** Folds the text of every existing message, in keyset batches so a large table is not read at once. */
async function backfill(db: AnyDb): Promise<void> {
  let after: { app_id: string; id: string } | null = null;
  for (;;) {
    let query = db
      .selectFrom('messages')
      .select(['app_id', 'id', 'text'])
      .orderBy('app_id')
      .orderBy('id')
      .limit(BATCH);
    if (after) {
      const last = after;
      query = query.where((eb) =>
        eb.or([
          eb('app_id', '>', last.app_id),
          eb.and([eb('app_id', '=', last.app_id), eb('id', '>', last.id)]),
        ]),
      );
    }
    const rows = (await query.execute()) as { app_id: string; id: string; text: string }[];
    for (const row of rows) {
      const folded = searchText(row.text);
      if (!folded) continue;
      await db
        .updateTable('messages')
        .set({ search_text: folded })
        .where('app_id', '=', row.app_id)
        .where('id', '=', row.id)
        .execute();
    }
    if (rows.length < BATCH) return;
    after = rows.at(-1)!;
  }
}

async function sqliteIndex(db: AnyDb): Promise<void> {
  // External content: the words live once, in messages.search_text; the index maps them to message rowids. Search
  // only asks "which rows have these words (the last as a prefix)": no positions (detail=none) and no sizes for
  // bm25 (columnsize=0) keep the index small and a send's extra write cheap; phrases are checked on search_text.
  await sql`create virtual table messages_fts using fts5(search_text, content='messages', content_rowid='rowid', tokenize='unicode61', detail='none', columnsize=0)`.execute(
    db,
  );
  await sql`create trigger messages_fts_insert after insert on messages begin insert into messages_fts(rowid, search_text) values (new.rowid, new.search_text); end`.execute(
    db,
  );
  await sql`create trigger messages_fts_delete after delete on messages begin insert into messages_fts(messages_fts, rowid, search_text) values ('delete', old.rowid, old.search_text); end`.execute(
    db,
  );
  await sql`create trigger messages_fts_update after update of search_text on messages begin insert into messages_fts(messages_fts, rowid, search_text) values ('delete', old.rowid, old.search_text); insert into messages_fts(rowid, search_text) values (new.rowid, new.search_text); end`.execute(
    db,
  );
  await sql`insert into messages_fts(messages_fts) values ('rebuild')`.execute(db);
}

/** The schema pg_trgm lives in, creating the extension when it is missing; null when that is not possible. */
async function trigramSchema(db: AnyDb): Promise<string | null> {
  const find = async () =>
    (
      await sql<{
        schema: string;
      }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
        db,
      )
    ).rows[0]?.schema ?? null;
  const existing = await find();
  if (existing) return existing;
  // A savepoint keeps the migration's transaction usable when the role may not create extensions, or when another
  // server sharing the database created it a moment ago.
  // It goes to `public` where there is one: an extension made inside a server's own schema would go (with every
  // other schema's trigram indexes) when that schema is dropped.
  for (const statement of [
    sql`create extension if not exists pg_trgm with schema public`,
    sql`create extension if not exists pg_trgm`,
  ]) {
    await sql`savepoint create_pg_trgm`.execute(db);
    try {
      await statement.execute(db);
      await sql`release savepoint create_pg_trgm`.execute(db);
      break;
    } catch {
      await sql`rollback to savepoint create_pg_trgm`.execute(db);
    }
  }
  return find();
}

async function postgresIndex(db: AnyDb): Promise<void> {
  const schema = await trigramSchema(db);
  if (!schema) return;
  await sql`create index messages_search_trgm on messages using gin (search_text ${sql.id(schema)}.gin_trgm_ops)`.execute(
    db,
  );
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('messages')
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await backfill(db);
  if (db.getExecutor().adapter instanceof SqliteAdapter) await sqliteIndex(db);
  else await postgresIndex(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const trigger of ['messages_fts_insert', 'messages_fts_delete', 'messages_fts_update'])
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
    await sql`drop table if exists messages_fts`.execute(db);
  } else {
    await sql`drop index if exists messages_search_trgm`.execute(db);
  }
  await db.schema.alterTable('messages').dropColumn('search_text').execute();
}
