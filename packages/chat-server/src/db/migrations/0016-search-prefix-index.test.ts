import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config.ts';
import { createDb } from '../create-db.ts';
import { migrateToLatest } from '../migrate.ts';
import { down, up } from './0016-search-prefix-index.ts';

const NOW = '2026-01-01T00:00:00.000Z';

async function withMigratedSqlite(run: (db: ReturnType<typeof createDb>['db']) => Promise<void>) {
  const { db: config } = parseConfig({
    apps: [{ key: 'k', secret: 's' }],
    db: { kind: 'sqlite', file: ':memory:' },
  });
  const handle = createDb(config);
  try {
    await migrateToLatest(handle.db, handle.kind);
    // The rows a message refers to.
    await sql`insert into apps (id, api_key, name, created_at, updated_at) values ('app', 'app-key', 'app', ${NOW}, ${NOW})`.execute(
      handle.db,
    );
    await sql`insert into users (app_id, id, role, name, created_at, updated_at) values ('app', 'u', 'user', 'u', ${NOW}, ${NOW})`.execute(
      handle.db,
    );
    await sql`insert into channels (app_id, cid, type, id, created_by_id, member_count, created_at, updated_at) values ('app', 'messaging:room', 'messaging', 'room', 'u', 1, ${NOW}, ${NOW})`.execute(
      handle.db,
    );
    await run(handle.db);
  } finally {
    await handle.close();
  }
}

async function storeMessage(db: ReturnType<typeof createDb>['db'], id: string, searchText: string) {
  await sql`insert into messages (app_id, id, cid, user_id, type, text, search_text, created_at, updated_at) values ('app', ${id}, 'messaging:room', 'u', 'regular', ${searchText}, ${searchText}, ${NOW}, ${NOW})`.execute(
    db,
  );
}

async function found(db: ReturnType<typeof createDb>['db'], match: string): Promise<string[]> {
  const rows = await sql<{
    id: string;
  }>`select m.id from messages_fts f join messages m on m.rowid = f.rowid where messages_fts match ${match} order by m.id`.execute(
    db,
  );
  return rows.rows.map((row) => row.id);
}

describe('the search index with prefixes (migration 0016)', () => {
  it('keeps ready prefixes of two to four letters on SQLite', async () => {
    await withMigratedSqlite(async (db) => {
      const table = await sql<{
        sql: string;
      }>`select sql from sqlite_master where name = 'messages_fts'`.execute(db);
      expect(table.rows[0]?.sql).toContain(`prefix='2 3 4'`);
    });
  });

  it('finds messages stored before the index was remade, by whole words and by prefixes of any length', async () => {
    await withMigratedSqlite(async (db) => {
      await down(db);
      await storeMessage(db, 'before', ' dao huu nguong mo ');
      await up(db);
      await storeMessage(db, 'after', ' dao truong ');
      expect(await found(db, '"dao"')).toEqual(['after', 'before']);
      expect(await found(db, '"ng"*')).toEqual(['before']);
      expect(await found(db, '"nguo"*')).toEqual(['before']);
      expect(await found(db, '"nguong"*')).toEqual(['before']);
      expect(await found(db, '"dao" "tr"*')).toEqual(['after']);
    });
  });

  it('follows edits and deletes after it was remade, through the triggers of migration 0007', async () => {
    await withMigratedSqlite(async (db) => {
      await storeMessage(db, 'edited', ' tra xanh ');
      await storeMessage(db, 'deleted', ' tra den ');
      await sql`update messages set search_text = ' ruou nep ' where id = 'edited'`.execute(db);
      await sql`delete from messages where id = 'deleted'`.execute(db);
      expect(await found(db, '"tr"*')).toEqual([]);
      expect(await found(db, '"ru"*')).toEqual(['edited']);
    });
  });
});
