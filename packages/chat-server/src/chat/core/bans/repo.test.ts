import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, dialectName, type TestDb } from '../../../testing/test-db.ts';
import { createBansRepo, type BansRepo } from './repo.ts';

describe(`${dialectName()}: connect addresses`, () => {
  let db: TestDb;
  let repo: BansRepo;
  beforeEach(async () => {
    db = await createTestDb();
    repo = createBansRepo(db.db);
  });
  afterEach(async () => {
    await db.close();
  });

  it('records the first address, then replaces it with the latest', async () => {
    expect(await repo.lastAddress(db.appId, 'ana')).toBeNull();
    await repo.recordAddress(db.appId, 'ana', '10.0.0.1', '2024-05-01T10:00:00.000000Z');
    await repo.recordAddress(db.appId, 'bao', '10.0.0.2', '2024-05-01T10:00:00.000000Z');
    await db.db
      .transaction()
      .execute((trx) =>
        repo.recordAddress(db.appId, 'ana', '10.0.0.3', '2024-05-01T11:00:00.000000Z', trx),
      );
    expect(await repo.lastAddress(db.appId, 'ana')).toBe('10.0.0.3');
    expect(await repo.lastAddress(db.appId, 'bao')).toBe('10.0.0.2');
    expect(
      await repo
        .tables()
        .selectFrom('connect_addresses')
        .select(['user_id', 'ip', 'seen_at'])
        .orderBy('user_id')
        .execute(),
    ).toEqual([
      { user_id: 'ana', ip: '10.0.0.3', seen_at: '2024-05-01T11:00:00.000000Z' },
      { user_id: 'bao', ip: '10.0.0.2', seen_at: '2024-05-01T10:00:00.000000Z' },
    ]);
  });
});
