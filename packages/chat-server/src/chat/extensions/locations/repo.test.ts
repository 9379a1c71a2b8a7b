import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, dialectName, type TestDb } from '../../../testing/test-db.ts';
import { createMessagesRepo } from '../../core/messages/repo.ts';
import { createLocationsRepo, type LocationsRepo, type SharedLocationRow } from './repo.ts';

const cid = 'messaging:ban-do';
const now = '2024-05-01T12:00:00.000000Z';

describe(`${dialectName()}: shared locations repository`, () => {
  let db: TestDb;
  let repo: LocationsRepo;

  beforeAll(async () => {
    db = await createTestDb();
    repo = createLocationsRepo(db.db);
    await db.db
      .insertInto('channels')
      .values({
        app_id: db.appId,
        cid,
        type: 'messaging',
        id: 'ban-do',
        custom: '{}',
        frozen: 0,
        disabled: 0,
        cooldown: 0,
        member_count: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const messages = createMessagesRepo(db.db);
    for (const [id, deletedAt] of [
      ['live', null],
      ['expired', null],
      ['static', null],
      ['deleted', '2024-05-01T11:00:00.000000Z'],
      ['other-user', null],
    ] as const) {
      await messages.insert(db.db, {
        app_id: db.appId,
        id,
        cid,
        user_id: 'lan',
        type: deletedAt ? 'deleted' : 'regular',
        text: '',
        html: '',
        parent_id: null,
        show_in_channel: 0,
        attachments: '[]',
        mentioned_users: '[]',
        custom: '{}',
        silent: 0,
        shadowed: 0,
        pinned: 0,
        reply_count: 0,
        deleted_reply_count: 0,
        reaction_groups: '{}',
        deleted_at: deletedAt,
        created_at: '2024-05-01T10:00:00.000000Z',
        updated_at: '2024-05-01T10:00:00.000000Z',
      });
    }
    const location = (
      messageId: string,
      endAt: string | null,
      userId = 'lan',
    ): SharedLocationRow => ({
      app_id: db.appId,
      message_id: messageId,
      cid,
      user_id: userId,
      created_by_device_id: 'web-desktop-chrome-lan',
      latitude: 21.028511,
      longitude: 105.804817,
      end_at: endAt,
      created_at: '2024-05-01T10:00:00.000000Z',
      updated_at: '2024-05-01T10:00:00.000000Z',
    });
    await repo.insert(db.db, location('live', '2024-05-01T13:00:00.000000Z'));
    await repo.insert(db.db, location('expired', '2024-05-01T11:59:59.000000Z'));
    await repo.insert(db.db, location('static', null));
    await repo.insert(db.db, location('deleted', '2024-05-01T13:00:00.000000Z'));
    await repo.insert(db.db, location('other-user', '2024-05-01T13:00:00.000000Z', 'minh'));
  });
  afterAll(async () => {
    await db.close();
  });

  it('lists only running live locations of the user on messages that are not deleted', async () => {
    const active = await repo.activeFor(db.appId, 'lan', now);
    expect(active.map((row) => row.message_id)).toEqual(['live']);
    expect(active[0]?.latitude).toBeCloseTo(21.028511, 6);
  });

  it('stops listing a live location once its end_at has passed', async () => {
    const active = await repo.activeFor(db.appId, 'lan', '2024-05-01T13:00:00.000000Z');
    expect(active).toEqual([]);
  });
});
