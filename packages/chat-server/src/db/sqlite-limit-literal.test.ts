import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, dialectName, testUserRow, type TestDb } from '../testing/test-db.ts';
import { reusableQuery } from './reusable-query.ts';

describe(`${dialectName()}: limits`, () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await createTestDb();
    for (const id of ['ana', 'bao', 'chi', 'dung']) {
      await db.db.insertInto('users').values(testUserRow(db.appId, id)).execute();
    }
  });
  afterEach(async () => {
    await db.close();
  });

  const firstUsers = (limit: number) =>
    db.db
      .selectFrom('users')
      .select('id')
      .where('app_id', '=', db.appId)
      .orderBy('id')
      .limit(limit);

  it('returns as many rows as the limit asks for, again and again with other limits', async () => {
    for (const limit of [2, 3, 0, 2, 10])
      expect((await firstUsers(limit).execute()).map((row) => row.id)).toEqual(
        ['ana', 'bao', 'chi', 'dung'].slice(0, limit),
      );
  });

  it.runIf(dialectName() === 'sqlite')(
    'writes a whole-number limit into the SQL text on SQLite, so binding it never expires the cached statement',
    () => {
      const compiled = firstUsers(3).compile();
      expect(compiled.sql).toMatch(/ limit 3$/);
      expect(compiled.parameters).toEqual([db.appId]);
    },
  );

  it('runs a reusable query with a constant limit, its one slot filled anew each time', async () => {
    const firstOfApp = reusableQuery<[string], { id: string }>(1, (executor, appId) =>
      executor.selectFrom('users').select('id').where('app_id', '=', appId).orderBy('id').limit(2),
    );
    expect((await firstOfApp.execute(db.db, db.appId)).map((row) => row.id)).toEqual([
      'ana',
      'bao',
    ]);
    expect(await firstOfApp.execute(db.db, 'another-app')).toEqual([]);
  });
});
