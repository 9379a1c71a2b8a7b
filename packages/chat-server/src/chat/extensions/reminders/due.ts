import { createJobLease, createLeasedJob, type JobLease } from '../../../db/job-lease.ts';
import { reportActivity } from '../../core/extension-points.ts';
import type { ReminderRow } from './repo.ts';
import { reminderEvent, reminderResponses, type RemindersContext } from './context.ts';
import { createReminderScheduler, type ReminderScheduler } from './scheduler.ts';

/** Tells each user about their reminders that came due, unless the message is gone. */
async function announceDue(ctx: RemindersContext, rows: ReminderRow[]): Promise<void> {
  for (const row of rows) {
    const message = await ctx.messages.repo.get(row.app_id, row.message_id);
    if (!message || message.deleted_at) continue;
    const [reminder] = await reminderResponses(
      ctx,
      row.app_id,
      [row],
      new Map([[message.id, message]]),
    );
    if (!reminder) continue;
    ctx.events.toUser(
      row.app_id,
      row.user_id,
      reminderEvent(ctx, 'notification.reminder_due', reminder),
    );
    reportActivity(ctx.activity, {
      kind: 'reminder-due',
      appId: row.app_id,
      userId: row.user_id,
      message,
    });
  }
}

export interface DueReminders extends ReminderScheduler {
  /** Starts looking for the `reminders-due` lease; the node holding it announces due reminders. */
  start(): void;
}

/**
 * The due-reminder timer, run by exactly one node at a time: the holder of the `reminders-due` lease
 * (db/job-lease.ts). The holder re-reads the next due reminder at every sweep, so reminders created through another
 * node are found, and when it dies another node takes the lapsed lease and announces what came due meanwhile. Each
 * reminder is also claimed by a conditional update, so even two nodes briefly both believing they hold the lease
 * announce it once.
 */
export function createDueScheduler(ctx: RemindersContext): DueReminders {
  const { deps, repo } = ctx;
  const base = createJobLease(deps.db, 'reminders-due', deps.config.jobs.leaseMs);
  let holding = false;
  const lease: JobLease = {
    owner: base.owner,
    async hold() {
      holding = await base.hold();
      return holding;
    },
    async release() {
      holding = false;
      await base.release();
    },
  };
  const scheduler = createReminderScheduler({
    // A node without the lease arms no timer.
    nextDue: async () => (holding ? repo.nextDue() : undefined),
    async claimDue(now, limit) {
      if (!holding) return [];
      const due = await repo.due(now, limit);
      if (due.length === 0) return [];
      return deps.writes.run((trx) => repo.claim(trx, due));
    },
    announce: (rows) => announceDue(ctx, rows),
    now: () => deps.clock.now(),
    log: deps.log,
  });
  const job = createLeasedJob(
    'reminders-due',
    lease,
    deps.config.jobs,
    async () => scheduler.reschedule(),
    deps.log,
  );
  return {
    reschedule: () => scheduler.reschedule(),
    start: () => job.start(),
    async stop() {
      await scheduler.stop();
      await job.stop();
    },
  };
}
