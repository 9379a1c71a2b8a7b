import { SqliteAdapter, sql, type Kysely } from 'kysely';

/*
 * Search treats the last typed word as a prefix (extensions/search/text-query.ts). Without a prefix index, FTS5
 * answers `"dai"*` by merging the posting lists of every indexed term that starts with "dai", which for a short,
 * common prefix costs hundreds of milliseconds before the first row. `prefix='2 3 4'` keeps ready-merged lists for
 * the 2-, 3- and 4-letter prefixes, the lengths of a Vietnamese syllable being typed. FTS5 options cannot be altered,
 * so the index is made again and rebuilt from messages.search_text; the triggers of 0007 name the table, not its
 * options, and keep working. PostgreSQL's trigram index already serves prefixes: nothing to do there.
 */

/** The options of 0007's index, shared so both versions (and the bench comparing them) stay identical otherwise. */
export const FTS_OPTIONS = `tokenize='unicode61', detail='none', columnsize=0`;
export const FTS_PREFIX_OPTION = `prefix='2 3 4'`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
type AnyDb = Kysely<any>;

async function remake(db: AnyDb, options: string): Promise<void> {
  await sql`drop table if exists messages_fts`.execute(db);
  await sql
    .raw(
      `create virtual table messages_fts using fts5(search_text, content='messages', content_rowid='rowid', ${options})`,
    )
    .execute(db);
  await sql`insert into messages_fts(messages_fts) values ('rebuild')`.execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter)
    await remake(db, `${FTS_OPTIONS}, ${FTS_PREFIX_OPTION}`);
}

export async function down(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) await remake(db, FTS_OPTIONS);
}
