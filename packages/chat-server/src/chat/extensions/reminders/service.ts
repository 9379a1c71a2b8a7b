import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
import type { RemindersContext } from './context.ts';
import { createDueScheduler } from './due.ts';
import { queryReminders } from './query.ts';
import type { ReminderResponse } from './serialize.ts';
import { createReminder, removeReminder, updateReminder } from './write.ts';

export { REMINDER_EXISTS, REMINDER_MISSING, type RemindersContext } from './context.ts';

export interface RemindersService {
  create(
    actor: Actor,
    messageId: string,
    body: JsonObject,
  ): Promise<{ reminder: ReminderResponse }>;
  update(
    actor: Actor,
    messageId: string,
    body: JsonObject,
  ): Promise<{ reminder: ReminderResponse }>;
  remove(actor: Actor, messageId: string, userId: string | undefined): Promise<JsonObject>;
  query(
    actor: Actor,
    body: JsonObject,
  ): Promise<{ reminders: ReminderResponse[]; next?: string; prev?: string }>;
  /** Starts the due-reminder timer (after a restart it announces what came due meanwhile). */
  start(): void;
  stop(): Promise<void>;
}

/** Assembles the reminders service from its use cases (write.ts, query.ts) and the due-reminder timer (due.ts). */
export function createRemindersService(context: RemindersContext): RemindersService {
  const ctx = { ...context, scheduler: createDueScheduler(context) };
  return {
    create: (actor, messageId, body) => createReminder(ctx, actor, messageId, body),
    update: (actor, messageId, body) => updateReminder(ctx, actor, messageId, body),
    remove: (actor, messageId, userId) => removeReminder(ctx, actor, messageId, userId),
    query: (actor, body) => queryReminders(ctx, actor, body),
    start: () => ctx.scheduler.start(),
    stop: () => ctx.scheduler.stop(),
  };
}
