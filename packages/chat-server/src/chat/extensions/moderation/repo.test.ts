import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, dialectName, type TestDb } from '../../../testing/test-db.ts';
import { createModerationRepo, type ModerationRepo } from './repo.ts';

describe(`${dialectName()}: user blocks`, () => {
  let db: TestDb;
  let repo: ModerationRepo;
  beforeEach(async () => {
    db = await createTestDb();
    repo = createModerationRepo(db.db);
  });
  afterEach(async () => {
    await db.close();
  });

  const block = (userId: string, blockedUserId: string, createdAt: string) =>
    repo.block(db.db, {
      app_id: db.appId,
      user_id: userId,
      blocked_user_id: blockedUserId,
      created_at: createdAt,
    });

  it('lists the user’s own blocks, oldest first', async () => {
    await block('ana', 'chi', '2024-05-01T11:00:00.000000Z');
    await block('ana', 'bao', '2024-05-01T10:00:00.000000Z');
    await block('bao', 'ana', '2024-05-01T09:00:00.000000Z');
    expect((await repo.blocks(db.appId, 'ana')).map((row) => row.blocked_user_id)).toEqual([
      'bao',
      'chi',
    ]);
    await repo.unblock(db.db, db.appId, 'ana', 'bao');
    expect(await repo.blocks(db.appId, 'ana')).toEqual([
      {
        app_id: db.appId,
        user_id: 'ana',
        blocked_user_id: 'chi',
        created_at: '2024-05-01T11:00:00.000000Z',
      },
    ]);
    expect(await repo.blocks(db.appId, 'chi')).toEqual([]);
    expect(await repo.blocks('other-app', 'ana')).toEqual([]);
  });
});
