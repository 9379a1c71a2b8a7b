import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, dialectName, testUserRow, type TestDb } from '../testing/test-db.ts';
import { reusableQuery } from './reusable-query.ts';

describe(`${dialectName()}: reusable query`, () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await createTestDb();
    for (const id of ['ana', 'bao', 'chi']) {
      await db.db
        .insertInto('users')
        .values(testUserRow(db.appId, id, id === 'chi' ? 'admin' : 'user'))
        .execute();
    }
  });
  afterEach(async () => {
    await db.close();
  });

  const usersWithRole = reusableQuery<[string, string], { id: string }>(
    2,
    (executor, appId, role) =>
      executor
        .selectFrom('users')
        .select('id')
        .where('app_id', '=', appId)
        .where('role', '=', role)
        .where('banned', '=', 0)
        .orderBy('id'),
  );

  it('runs the same compiled query with each call’s own values, keeping constants', async () => {
    expect(await usersWithRole.execute(db.db, db.appId, 'user')).toEqual([
      { id: 'ana' },
      { id: 'bao' },
    ]);
    expect(await usersWithRole.execute(db.db, db.appId, 'admin')).toEqual([{ id: 'chi' }]);
    await db.db.updateTable('users').set({ banned: 1 }).where('id', '=', 'ana').execute();
    expect(await usersWithRole.execute(db.db, db.appId, 'user')).toEqual([{ id: 'bao' }]);
    expect(await usersWithRole.execute(db.db, 'other-app', 'user')).toEqual([]);
  });

  it('runs inside a transaction and sees its uncommitted writes', async () => {
    const seen = await db.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ role: 'admin' }).where('id', '=', 'bao').execute();
      return usersWithRole.execute(trx, db.appId, 'admin');
    });
    expect(seen).toEqual([{ id: 'bao' }, { id: 'chi' }]);
  });

  it('reads on the database never show a transaction’s rows before its commit', async () => {
    let seenInside: Promise<{ rows: { id: string }[]; committed: boolean }> | undefined;
    let committed = false;
    const afterCommit = db.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ role: 'admin' }).where('id', '=', 'bao').execute();
      // Started while the transaction is open, on the database rather than the transaction.
      seenInside = usersWithRole
        .execute(db.db, db.appId, 'admin')
        .then((rows) => ({ rows, committed }));
      await new Promise((resolve) => setImmediate(resolve));
    });
    await afterCommit.then(() => (committed = true));
    const seen = await seenInside!;
    // The uncommitted row shows only once it is committed.
    if (seen.rows.some((row) => row.id === 'bao')) expect(seen.committed).toBe(true);
    // SQLite has one connection: the read waits for the commit, then sees it. PostgreSQL's pool may answer from
    // another connection before the commit, without the row.
    if (dialectName() === 'sqlite') expect(seen.rows).toEqual([{ id: 'bao' }, { id: 'chi' }]);
    else expect([[{ id: 'chi' }], [{ id: 'bao' }, { id: 'chi' }]]).toContainEqual(seen.rows);
  });

  it('reads on the database never show the rows of a transaction that rolled back', async () => {
    let seenInside: Promise<{ id: string }[]> | undefined;
    await expect(
      db.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ role: 'admin' }).where('id', '=', 'ana').execute();
        seenInside = usersWithRole.execute(db.db, db.appId, 'admin');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await seenInside).toEqual([{ id: 'chi' }]);
  });

  it('refuses a query that does not use one of its parameters as a value', async () => {
    const broken = reusableQuery<[string, string], { id: string }>(2, (executor, appId) =>
      executor.selectFrom('users').select('id').where('app_id', '=', appId),
    );
    await expect(broken.execute(db.db, db.appId, 'unused')).rejects.toThrow(
      /every parameter must appear/,
    );
  });
});
