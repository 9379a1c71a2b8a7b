import type { ActivityListener } from '../../core/extension-points.ts';
import { normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import {
  inWindow,
  ownerViewer,
  readableCids,
  viewerWindows,
} from '../../core/access/visibility.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessageRow } from '../../core/messages/repo.ts';
import { userOf } from '../../core/messages/serialize.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { ReminderRow, RemindersRepo } from './repo.ts';
import type { ReminderScheduler } from './scheduler.ts';
import { toReminderBase, type ReminderResponse } from './serialize.ts';

// The client's upsertReminder falls back between create and update by matching these substrings.
export const REMINDER_EXISTS = 'already has reminder created for this message_id';
export const REMINDER_MISSING = 'reminder does not exist';

/** What the reminders service is built from. */
export interface RemindersContext {
  deps: ChatDeps;
  repo: RemindersRepo;
  messages: MessagesService;
  assembler: MessageAssembler;
  users: UsersService;
  events: EventPublisher;
  /** Told of each reminder come due (`ExtensionPoints.activity`: in-app notifications). */
  activity?: readonly ActivityListener[];
}

/** What the use cases run over: the service's context and the one due-reminder timer they re-arm. */
export interface RemindersUseCaseContext extends RemindersContext {
  scheduler: ReminderScheduler;
}

/** Whose reminder a call is about: the caller's own, or for server-side calls the given `user_id`. */
export function actingUser(actor: Actor, given: unknown): string {
  const id = actor.isServer && typeof given === 'string' && given ? given : actor.userId;
  if (!id) throw chatError.input('user_id is required for server-side calls');
  if (actor.role === 'anonymous')
    throw chatError.notAllowed('anonymous users cannot set reminders');
  return id;
}

export function remindAtOf(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' && typeof value !== 'number')
    throw chatError.input('remind_at must be a date');
  const iso = normalizeIso(value);
  if (!iso) throw chatError.input('remind_at must be a date');
  return iso;
}

/** The message a reminder is set on, as the reminder's user may see it, in a channel type with reminders on. */
export async function reminderMessage(
  ctx: RemindersContext,
  actor: Actor,
  userId: string,
  messageId: string,
): Promise<MessageRow> {
  const { row, access } = await ctx.messages.accessMessage(
    actor.isServer ? { ...actor, userId } : actor,
    messageId,
  );
  if (row.type === 'deleted') throw chatError.input('a deleted message cannot get a reminder');
  if (!access.type.config.user_message_reminders) {
    throw chatError.featureNotSupported(
      `reminders are disabled for channel type ${access.channel.type}`,
    );
  }
  return row;
}

type AssembledMessage = Awaited<ReturnType<MessageAssembler['one']>>;

/** Each user's reminded messages, assembled as that user sees them, keyed by user id and message id. */
async function assembledPerUser(
  ctx: RemindersContext,
  appId: string,
  byUser: Map<string, ReminderRow[]>,
  messageRows: Map<string, MessageRow>,
): Promise<Map<string, AssembledMessage>> {
  const assembled = new Map<string, AssembledMessage>();
  for (const [userId, list] of byUser) {
    // A message the user can no longer read (removed from a private channel) or that is hidden from them since the
    // reminder was set (truncation, clear_history, a shadow-banned author) takes the reminder along.
    const cids = list.map((r) => r.cid);
    const readable = await readableCids(
      ctx.deps.db,
      await ownerViewer({ appId, userId }, (a, u) => ctx.users.roleOf(a, u)),
      cids,
      ctx.deps.channelTypes,
    );
    const windowOf = await viewerWindows(ctx.messages.repo, appId, cids, userId);
    const present = list
      .map((r) => messageRows.get(r.message_id))
      .filter((m): m is MessageRow => !!m && readable.has(m.cid) && inWindow(windowOf(m.cid), m));
    for (const message of await ctx.assembler.assemble(appId, present, userId))
      assembled.set(`${userId}\u0000${message.id}`, message);
  }
  return assembled;
}

export async function reminderResponses(
  ctx: RemindersContext,
  appId: string,
  rows: ReminderRow[],
  known: Map<string, MessageRow> = new Map(),
): Promise<ReminderResponse[]> {
  if (rows.length === 0) return [];
  const missing = rows.map((r) => r.message_id).filter((id) => !known.has(id));
  const loaded = missing.length ? await ctx.messages.repo.getMany(appId, missing) : new Map();
  const messageRows = new Map<string, MessageRow>([...known, ...loaded]);
  const byUser = new Map<string, ReminderRow[]>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  const userMap = await ctx.users.responses(appId, byUser.keys());
  const assembled = await assembledPerUser(ctx, appId, byUser, messageRows);
  const result: ReminderResponse[] = [];
  for (const row of rows) {
    const message = assembled.get(`${row.user_id}\u0000${row.message_id}`);
    // A hard-deleted message takes its reminders with it.
    if (!message) continue;
    result.push({ ...toReminderBase(row), user: userOf(userMap, row.user_id), message });
  }
  return result;
}

export async function oneReminder(
  ctx: RemindersContext,
  appId: string,
  row: ReminderRow,
): Promise<ReminderResponse> {
  const [reminder] = await reminderResponses(ctx, appId, [row]);
  if (!reminder) throw chatError.notFound(REMINDER_MISSING);
  return reminder;
}

export function reminderEvent(
  ctx: RemindersContext,
  type: string,
  reminder: ReminderResponse,
): JsonObject {
  const [channelType, ...rest] = reminder.channel_cid.split(':');
  return {
    type,
    cid: reminder.channel_cid,
    channel_type: channelType,
    channel_id: rest.join(':'),
    message_id: reminder.message_id,
    user_id: reminder.user_id,
    reminder,
    created_at: ctx.deps.clock.now(),
  };
}
