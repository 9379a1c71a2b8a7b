import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, dialectName, testUserRow, type TestDb } from '../testing/test-db.ts';
import { createDb, type DbHandle } from './create-db.ts';
import { readDirectly } from './direct-read.ts';

describe(`${dialectName()}: direct reads`, () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await createTestDb();
    await db.db.insertInto('users').values(testUserRow(db.appId, 'ana')).execute();
  });
  afterEach(async () => {
    await db.close();
  });

  it('gives the same rows as a read through Kysely, every column with its value', async () => {
    const query = db.db.selectFrom('users').selectAll().where('app_id', '=', db.appId).compile();
    const throughKysely = (await db.db.executeQuery(query)).rows;
    const direct = readDirectly(db.db, query);
    if (dialectName() !== 'sqlite') {
      expect(direct).toBeUndefined();
      return;
    }
    expect(direct).toEqual(throughKysely);
    expect(Object.keys(direct![0]!)).toEqual(Object.keys(throughKysely[0]!));
  });

  it.skipIf(dialectName() !== 'sqlite')(
    'keeps the last value of a repeated column name, as better-sqlite3 does',
    async () => {
      const query = sql<{ id: string }>`select 'first' as id, 'last' as id`.compile(db.db);
      const direct = readDirectly<{ id: string }>(db.db, query);
      expect(direct).toEqual((await db.db.executeQuery(query)).rows);
      expect(direct).toEqual([{ id: 'last' }]);
    },
  );

  it.skipIf(dialectName() !== 'sqlite')(
    'reads columns whose names are not identifiers as those exact names, running nothing they spell',
    async () => {
      const query = sql`select 1 as "a""b", 2 as "back\\slash", 3 as "new
line", 4 as "}; throw new Error('ran'); //", 5 as "constructor"`.compile(db.db);
      const direct = readDirectly(db.db, query);
      expect(direct).toEqual((await db.db.executeQuery(query)).rows);
      expect(direct).toEqual([
        {
          'a"b': 1,
          'back\\slash': 2,
          'new\nline': 3,
          "}; throw new Error('ran'); //": 4,
          constructor: 5,
        },
      ]);
    },
  );

  it.skipIf(dialectName() !== 'sqlite')(
    'reads a column named like the prototype as Kysely does, without touching the prototype',
    async () => {
      const proto = sql`select 1 as "__proto__", 2 as "x"`.compile(db.db);
      const direct = readDirectly<Record<string, unknown>>(db.db, proto);
      expect(direct).toEqual((await db.db.executeQuery(proto)).rows);
      expect(Object.getPrototypeOf(direct![0])).toBe(Object.prototype);
      expect(direct![0]!.x).toBe(2);
    },
  );

  it.skipIf(dialectName() !== 'sqlite')(
    'sees a column added after its query first ran, directly and through Kysely',
    async () => {
      const query = () =>
        db.db.selectFrom('users').selectAll().where('app_id', '=', db.appId).compile();
      expect(readDirectly(db.db, query())).toEqual((await db.db.executeQuery(query())).rows);
      await sql`alter table users add column added_later text default 'here'`.execute(db.db);
      const direct = readDirectly<Record<string, unknown>>(db.db, query());
      const throughKysely = (await db.db.executeQuery(query())).rows as Record<string, unknown>[];
      expect(direct![0]!.added_later).toBe('here');
      expect(throughKysely[0]!.added_later).toBe('here');
      expect(direct).toEqual(throughKysely);
    },
  );

  it('leaves writes and transactions to Kysely', async () => {
    const write = db.db.updateTable('users').set({ role: 'admin' }).compile();
    expect(readDirectly(db.db, write)).toBeUndefined();
    await db.db.transaction().execute(async (trx) => {
      const read = trx.selectFrom('users').selectAll().compile();
      expect(readDirectly(trx, read)).toBeUndefined();
      expect(readDirectly(db.db, read)).toBeUndefined();
    });
  });
});

describe.skipIf(dialectName() !== 'sqlite')('sqlite: the read transaction of one turn', () => {
  let dir: string;
  let handle: DbHandle;
  let other: SQLite.Database;
  const countQuery = () => sql<{ n: number }>`select count(*) as n from notes`.compile(handle.db);
  const count = () => readDirectly<{ n: number }>(handle.db, countQuery())?.[0]?.n;
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'direct-read-'));
    const file = join(dir, 'chat.db');
    handle = createDb({ kind: 'sqlite', file });
    await sql`create table notes (id integer primary key, body text)`.execute(handle.db);
    other = new SQLite(file);
    other.pragma('busy_timeout = 5000');
  });
  afterEach(async () => {
    other.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows a write made earlier in the same turn to the reads after it', async () => {
    expect(count()).toBe(0);
    await sql`insert into notes (body) values ('một')`.execute(handle.db);
    expect(count()).toBe(1);
    await handle.db.transaction().execute(async (trx) => {
      await sql`insert into notes (body) values ('hai')`.execute(trx);
    });
    expect(count()).toBe(2);
  });

  it('lets a transaction begin while the reads of the turn are open', async () => {
    expect(count()).toBe(0);
    const inserted = handle.db
      .transaction()
      .execute((trx) => sql`insert into notes (body) values ('ba')`.execute(trx));
    await expect(inserted).resolves.toBeDefined();
    expect(count()).toBe(1);
  });

  it('never blocks another connection, and shows its writes from the next turn on', async () => {
    expect(count()).toBe(0);
    other.prepare(`insert into notes (body) values ('bốn')`).run();
    await nextTurn();
    expect(count()).toBe(1);
  });

  it('is over when the turn ends, so another connection can truncate the log', async () => {
    expect(count()).toBe(0);
    other.prepare(`insert into notes (body) values ('năm')`).run();
    await nextTurn();
    const [result] = other.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    expect(result?.busy).toBe(0);
  });
});
