import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, dialectName, type TestDb } from '../../../testing/test-db.ts';
import { parseMessagePage } from './pagination.ts';
import { createMessagesRepo, type MessagesRepo } from './repo.ts';

const cid = 'messaging:phong-van';
/** m00…m19 at one-second steps; m05 and m06 share a timestamp (ties break on id). */
const stamps = Array.from({ length: 20 }, (_, i) => {
  const second = i === 6 ? 5 : i;
  return `2024-03-01T00:00:${String(second).padStart(2, '0')}.000000Z`;
});
const id = (i: number) => `m${String(i).padStart(2, '0')}`;

describe(`${dialectName()}: messages repository pagination`, () => {
  let db: TestDb;
  let repo: MessagesRepo;

  beforeAll(async () => {
    db = await createTestDb();
    repo = createMessagesRepo(db.db);
    const now = '2024-03-01T00:00:00.000000Z';
    await db.db
      .insertInto('channels')
      .values({
        app_id: db.appId,
        cid,
        type: 'messaging',
        id: 'phong-van',
        custom: '{}',
        frozen: 0,
        disabled: 0,
        cooldown: 0,
        member_count: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const base = {
      app_id: db.appId,
      cid,
      user_id: 'u',
      html: '',
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
    };
    for (let i = 0; i < 20; i++) {
      await repo.insert(db.db, {
        ...base,
        id: id(i),
        type: 'regular',
        text: `tin ${i}`,
        parent_id: null,
        created_at: stamps[i]!,
        updated_at: stamps[i]!,
      });
    }
    // A thread reply that is not shown in the channel, and one that is.
    await repo.insert(db.db, {
      ...base,
      id: 'r1',
      type: 'reply',
      text: 'r',
      parent_id: id(3),
      created_at: '2024-03-01T00:00:30.000000Z',
      updated_at: now,
    });
    await repo.insert(db.db, {
      ...base,
      id: 'r2',
      type: 'reply',
      text: 'r',
      parent_id: id(3),
      show_in_channel: 1,
      created_at: '2024-03-01T00:00:31.000000Z',
      updated_at: now,
    });
  });
  afterAll(async () => {
    await db.close();
  });

  async function page(
    options: Record<string, unknown>,
    parentId: string | null = null,
    visibleAfter?: string,
  ) {
    const rows = await repo.page(
      { appId: db.appId, cid, parentId, visibleAfter: visibleAfter ?? null },
      parseMessagePage(options, { limit: 100, max: 300 }),
    );
    return rows.map((r) => r.id);
  }

  it('returns the newest messages in ascending order when no cursor is given', async () => {
    expect(await page({ limit: 3 })).toEqual([id(18), id(19), 'r2']);
  });

  it('pages backwards with id_lt and id_lte, ties on created_at broken by id', async () => {
    expect(await page({ limit: 3, id_lt: id(8) })).toEqual([id(5), id(6), id(7)]);
    expect(await page({ limit: 3, id_lt: id(6) })).toEqual([id(3), id(4), id(5)]);
    expect(await page({ limit: 2, id_lte: id(6) })).toEqual([id(5), id(6)]);
  });

  it('pages forwards with id_gt and id_gte', async () => {
    expect(await page({ limit: 3, id_gt: id(4) })).toEqual([id(5), id(6), id(7)]);
    expect(await page({ limit: 2, id_gte: id(5) })).toEqual([id(5), id(6)]);
  });

  it('centres id_around on the target', async () => {
    expect(await page({ limit: 5, id_around: id(10) })).toEqual([
      id(8),
      id(9),
      id(10),
      id(11),
      id(12),
    ]);
    expect(await page({ limit: 4, id_around: id(1) })).toEqual([id(0), id(1), id(2), id(3)]);
  });

  it('centres created_at_around on an instant', async () => {
    expect(await page({ limit: 4, created_at_around: '2024-03-01T00:00:10.500Z' })).toEqual([
      id(9),
      id(10),
      id(11),
      id(12),
    ]);
  });

  it('filters by created_at before, before or equal, after and after or equal', async () => {
    expect(await page({ limit: 2, created_at_before: stamps[10] })).toEqual([id(8), id(9)]);
    expect(await page({ limit: 2, created_at_before_or_equal: stamps[10] })).toEqual([
      id(9),
      id(10),
    ]);
    expect(await page({ limit: 2, created_at_after: stamps[10] })).toEqual([id(11), id(12)]);
    expect(await page({ limit: 2, created_at_after_or_equal: stamps[10] })).toEqual([
      id(10),
      id(11),
    ]);
  });

  it('skips with offset from the newest end', async () => {
    expect(await page({ limit: 2, offset: 3 })).toEqual([id(16), id(17)]);
  });

  it('lists the replies of a parent apart from the channel view', async () => {
    expect(await page({ limit: 10 }, id(3))).toEqual(['r1', 'r2']);
    expect(await page({ limit: 30 })).not.toContain('r1');
  });

  it('hides everything up to a truncation point', async () => {
    expect(await page({ limit: 100 }, null, stamps[17])).toEqual([id(18), id(19), 'r2']);
  });

  it('returns the newest messages of several channels in one query', async () => {
    const result = await repo.latestPerChannel(db.appId, [cid, 'messaging:empty'], 2, new Map());
    expect(result.get(cid)?.map((r) => r.id)).toEqual([id(19), 'r2']);
    expect(result.get('messaging:empty')).toEqual([]);
  });

  it('rejects a limit above the maximum and non-numeric cursors with code 4', () => {
    expect(() => parseMessagePage({ limit: 301 }, { limit: 100, max: 300 })).toThrow(
      /between 0 and 300/,
    );
    expect(() => parseMessagePage({ limit: 'many' }, { limit: 100, max: 300 })).toThrow(
      /must be an integer/,
    );
    expect(() => parseMessagePage({ offset: 1e30 }, { limit: 100, max: 300 })).toThrow(
      /offset must be an integer between 0 and 1000/,
    );
    expect(() =>
      parseMessagePage({ created_at_before: 'never' }, { limit: 100, max: 300 }),
    ).toThrow(/date/);
    expect(() => parseMessagePage({ id_lt: 5 }, { limit: 100, max: 300 })).toThrow(/message id/);
  });
});
