import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, dialectName, testUserRow, type TestDb } from '../testing/test-db.ts';
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

  it('leaves writes, transactions and prototype-named columns to Kysely', async () => {
    const write = db.db.updateTable('users').set({ role: 'admin' }).compile();
    expect(readDirectly(db.db, write)).toBeUndefined();
    const proto = sql`select 1 as "__proto__"`.compile(db.db);
    expect(readDirectly(db.db, proto)).toBeUndefined();
    await db.db.transaction().execute(async (trx) => {
      const read = trx.selectFrom('users').selectAll().compile();
      expect(readDirectly(trx, read)).toBeUndefined();
      expect(readDirectly(db.db, read)).toBeUndefined();
    });
  });
});
