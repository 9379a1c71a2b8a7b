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

/** The one due-reminder timer, reading and claiming due reminders through the reminders repo. */
export function createDueScheduler(ctx: RemindersContext): ReminderScheduler {
  const { deps, repo } = ctx;
  return createReminderScheduler({
    nextDue: () => repo.nextDue(),
    async claimDue(now, limit) {
      const due = await repo.due(now, limit);
      if (due.length === 0) return [];
      return deps.writes.run((trx) => repo.claim(trx, due));
    },
    announce: (rows) => announceDue(ctx, rows),
    now: () => deps.clock.now(),
    log: deps.log,
  });
}
