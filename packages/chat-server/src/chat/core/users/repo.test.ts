import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, dialectName, testUserRow, type TestDb } from '../../../testing/test-db.ts';
import { createUsersRepo, type UsersRepo } from './repo.ts';

describe(`${dialectName()}: users repository insert`, () => {
  let db: TestDb;
  let repo: UsersRepo;
  beforeEach(async () => {
    db = await createTestDb();
    repo = createUsersRepo(db.db);
  });
  afterEach(async () => {
    await db.close();
  });

  it('stores rows of different column sets, leaving out the undefined columns', async () => {
    await repo.insert({ ...testUserRow(db.appId, 'ana'), name: 'Ana', privacy_settings: '{}' });
    await repo.insert({ ...testUserRow(db.appId, 'bao'), name: undefined, last_active: 'y' });
    await repo.insert({ ...testUserRow(db.appId, 'chi', 'admin'), name: 'Chi' });
    const rows = await repo.getMany(db.appId, ['ana', 'bao', 'chi']);
    expect(rows.get('ana')).toMatchObject({
      name: 'Ana',
      privacy_settings: '{}',
      last_active: null,
    });
    expect(rows.get('bao')).toMatchObject({ name: null, privacy_settings: null, last_active: 'y' });
    expect(rows.get('chi')).toMatchObject({ role: 'admin', name: 'Chi', ban_expires: null });
  });

  it('fails on an existing user, inside a transaction as outside', async () => {
    await repo.insert(testUserRow(db.appId, 'ana'));
    await expect(repo.insert({ ...testUserRow(db.appId, 'ana'), name: 'Again' })).rejects.toThrow();
    await db.db.transaction().execute(async (trx) => {
      await repo.insert({ ...testUserRow(db.appId, 'bao'), name: 'Bao' }, trx);
      expect(
        (await trx.selectFrom('users').select('name').where('id', '=', 'bao').execute())[0],
      ).toEqual({ name: 'Bao' });
    });
    expect((await repo.get(db.appId, 'ana'))?.name).toBeNull();
    expect((await repo.get(db.appId, 'bao'))?.name).toBe('Bao');
  });
});
