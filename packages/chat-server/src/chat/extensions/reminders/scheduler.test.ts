import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../../db/clock.ts';
import { createTestDb, dialectName, type TestDb } from '../../../testing/test-db.ts';
import { createRemindersRepo, type ReminderRow, type RemindersRepo } from './repo.ts';
import { createReminderScheduler } from './scheduler.ts';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe(`${dialectName()}: reminder scheduler`, () => {
  let db: TestDb;
  let repo: RemindersRepo;

  beforeAll(async () => {
    db = await createTestDb();
    repo = createRemindersRepo(db.db);
  });
  afterAll(async () => {
    await db.close();
  });

  function reminder(messageId: string, remindAt: string | null, dueSent = 0): ReminderRow {
    return {
      app_id: db.appId,
      user_id: 'lan',
      message_id: messageId,
      cid: 'messaging:dong-phu',
      remind_at: remindAt,
      due_sent: dueSent,
      created_at: '2024-01-01T00:00:00.000000Z',
      updated_at: '2024-01-01T00:00:00.000000Z',
    };
  }

  it('announces at start what came due while the server was down, once, and keeps later ones pending', async () => {
    const future = '2999-01-01T00:00:00.000000Z';
    await repo.insert(db.db, reminder('missed', '2024-02-01T00:00:00.000000Z'));
    await repo.insert(db.db, reminder('already-sent', '2024-02-01T00:00:00.000000Z', 1));
    await repo.insert(db.db, reminder('bookmark', null));
    await repo.insert(db.db, reminder('later', future));

    const clock = createClock();
    const announced: string[] = [];
    let announcedOnce: () => void = () => undefined;
    const firstAnnouncement = new Promise<void>((resolve) => {
      announcedOnce = resolve;
    });
    const scheduler = createReminderScheduler({
      nextDue: () => repo.nextDue(),
      claimDue: async (now, limit) => repo.claim(db.db, await repo.due(now, limit)),
      announce: async (rows) => {
        announced.push(...rows.map((r) => r.message_id));
        announcedOnce();
      },
      now: () => clock.now(),
      log: silent,
    });
    scheduler.reschedule();
    await firstAnnouncement;
    await scheduler.stop();

    expect(announced).toEqual(['missed']);
    expect((await repo.get(db.appId, 'lan', 'missed'))?.due_sent).toBe(1);
    expect(await repo.nextDue()).toBe(future);
    // A second node (or a restart) finds nothing left to claim.
    expect(await repo.claim(db.db, [reminder('missed', '2024-02-01T00:00:00.000000Z')])).toEqual(
      [],
    );
  });

  it('tries again by itself after a run failed (the database was restarting)', async () => {
    const clock = createClock();
    let failures = 1;
    let claimed = false;
    let announced: (ids: string[]) => void = () => undefined;
    const announcement = new Promise<string[]>((resolve) => (announced = resolve));
    const scheduler = createReminderScheduler({
      nextDue: async () => {
        if (failures-- > 0) throw new Error('Connection terminated unexpectedly');
        return claimed ? undefined : '2024-03-01T00:00:00.000000Z';
      },
      claimDue: async () => {
        if (claimed) return [];
        claimed = true;
        return [reminder('after-restart', '2024-03-01T00:00:00.000000Z')];
      },
      announce: async (rows) => announced(rows.map((r) => r.message_id)),
      now: () => clock.now(),
      log: silent,
      retryMs: 10,
    });
    scheduler.reschedule();
    const ids = await Promise.race([
      announcement,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no retry after the failed run')), 5000),
      ),
    ]);
    await scheduler.stop();
    expect(ids).toEqual(['after-restart']);
  });
});
