import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
import {
  REMINDER_EXISTS,
  REMINDER_MISSING,
  actingUser,
  oneReminder,
  reminderEvent,
  reminderMessage,
  remindAtOf,
  type RemindersUseCaseContext,
} from './context.ts';
import type { ReminderRow } from './repo.ts';
import type { ReminderResponse } from './serialize.ts';

export async function createReminder(
  ctx: RemindersUseCaseContext,
  actor: Actor,
  messageId: string,
  body: JsonObject,
): Promise<{ reminder: ReminderResponse }> {
  const { deps, repo } = ctx;
  const userId = actingUser(actor, body.user_id);
  const message = await reminderMessage(ctx, actor, userId, messageId);
  const remindAt = remindAtOf(body.remind_at);
  if (await repo.get(actor.appId, userId, messageId))
    throw chatError.input(`user ${userId} ${REMINDER_EXISTS}`);
  const now = deps.clock.now();
  const row: ReminderRow = {
    app_id: actor.appId,
    user_id: userId,
    message_id: messageId,
    cid: message.cid,
    remind_at: remindAt,
    due_sent: 0,
    created_at: now,
    updated_at: now,
  };
  try {
    await deps.writes.run((trx) => repo.insert(trx, row));
  } catch (error) {
    // A concurrent create of the same reminder lost the race: the client expects the "exists" error.
    if (await repo.get(actor.appId, userId, messageId))
      throw chatError.input(`user ${userId} ${REMINDER_EXISTS}`);
    throw error;
  }
  if (remindAt) ctx.scheduler.reschedule();
  const reminder = await oneReminder(ctx, actor.appId, row);
  ctx.events.toUser(actor.appId, userId, reminderEvent(ctx, 'reminder.created', reminder));
  return { reminder };
}

export async function updateReminder(
  ctx: RemindersUseCaseContext,
  actor: Actor,
  messageId: string,
  body: JsonObject,
): Promise<{ reminder: ReminderResponse }> {
  const { deps, repo } = ctx;
  const userId = actingUser(actor, body.user_id);
  await reminderMessage(ctx, actor, userId, messageId);
  const existing = await repo.get(actor.appId, userId, messageId);
  if (!existing) throw chatError.notFound(REMINDER_MISSING);
  // Without a remind_at the reminder becomes a bookmark ("save for later"), as Stream's SDKs document.
  const remindAt = remindAtOf(body.remind_at);
  const now = deps.clock.now();
  const patch = { remind_at: remindAt, due_sent: 0, updated_at: now };
  await deps.writes.run((trx) =>
    repo.update(trx, { appId: actor.appId, userId, messageId }, patch),
  );
  ctx.scheduler.reschedule();
  const reminder = await oneReminder(ctx, actor.appId, { ...existing, ...patch });
  ctx.events.toUser(actor.appId, userId, reminderEvent(ctx, 'reminder.updated', reminder));
  return { reminder };
}

export async function removeReminder(
  ctx: RemindersUseCaseContext,
  actor: Actor,
  messageId: string,
  given: string | undefined,
): Promise<JsonObject> {
  const { deps, repo } = ctx;
  const userId = actingUser(actor, given);
  const existing = await repo.get(actor.appId, userId, messageId);
  if (!existing) throw chatError.notFound(REMINDER_MISSING);
  await ctx.messages.accessMessage(actor.isServer ? { ...actor, userId } : actor, messageId);
  const reminder = await oneReminder(ctx, actor.appId, existing);
  await deps.writes.run((trx) => repo.remove(trx, actor.appId, userId, messageId));
  // The client's guard drops reminder.* events without `reminder`; it removes by the top-level message_id.
  ctx.events.toUser(actor.appId, userId, reminderEvent(ctx, 'reminder.deleted', reminder));
  return {};
}
