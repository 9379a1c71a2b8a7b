import { sql } from 'kysely';
import { normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessageRow } from '../../core/messages/repo.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import { compileFilter } from '../../core/query/filter.ts';
import { compileSort, parseSort } from '../../core/query/sort.ts';
import type { UsersService } from '../../core/users/service.ts';
import { userOf } from '../../core/messages/serialize.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import type { ReminderRow, RemindersRepo } from './repo.ts';
import { createReminderScheduler, type ReminderScheduler } from './scheduler.ts';
import { toReminderBase, type ReminderResponse } from './serialize.ts';
import { inWindow, viewerWindows } from '../../core/access/visibility.ts';

const PAGE_DEFAULT = 25;
const PAGE_MAX = 100;

// The client's upsertReminder falls back between create and update by matching these substrings.
export const REMINDER_EXISTS = 'already has reminder created for this message_id';
export const REMINDER_MISSING = 'reminder does not exist';

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

/** What the reminders service is built from. */
export interface RemindersContext {
  deps: ChatDeps;
  repo: RemindersRepo;
  messages: MessagesService;
  assembler: MessageAssembler;
  users: UsersService;
  events: EventPublisher;
}

export function createRemindersService(context: RemindersContext): RemindersService {
  const { deps, repo, messages, assembler, users, events } = context;
  const scheduler: ReminderScheduler = createReminderScheduler({
    nextDue: () => repo.nextDue(),
    async claimDue(now, limit) {
      const due = await repo.due(now, limit);
      if (due.length === 0) return [];
      return deps.writes.run((trx) => repo.claim(trx, due));
    },
    async announce(rows) {
      for (const row of rows) {
        const message = await messages.repo.get(row.app_id, row.message_id);
        if (!message || message.deleted_at) continue;
        const [reminder] = await responses(row.app_id, [row], new Map([[message.id, message]]));
        if (!reminder) continue;
        events.toUser(row.app_id, row.user_id, eventOf('notification.reminder_due', reminder));
      }
    },
    now: () => deps.clock.now(),
    log: deps.log,
  });

  function actingUser(actor: Actor, given: unknown): string {
    const id = actor.isServer && typeof given === 'string' && given ? given : actor.userId;
    if (!id) throw chatError.input('user_id is required for server-side calls');
    if (actor.role === 'anonymous')
      throw chatError.notAllowed('anonymous users cannot set reminders');
    return id;
  }

  function remindAtOf(value: unknown): string | null {
    if (value === undefined || value === null || value === '') return null;
    if (typeof value !== 'string' && typeof value !== 'number')
      throw chatError.input('remind_at must be a date');
    const iso = normalizeIso(value);
    if (!iso) throw chatError.input('remind_at must be a date');
    return iso;
  }

  async function messageFor(actor: Actor, userId: string, messageId: string) {
    const { row, access } = await messages.accessMessage(
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

  async function responses(
    appId: string,
    rows: ReminderRow[],
    known: Map<string, MessageRow> = new Map(),
  ): Promise<ReminderResponse[]> {
    if (rows.length === 0) return [];
    const missing = rows.map((r) => r.message_id).filter((id) => !known.has(id));
    const loaded = missing.length ? await messages.repo.getMany(appId, missing) : new Map();
    const messageRows = new Map<string, MessageRow>([...known, ...loaded]);
    const byUser = new Map<string, ReminderRow[]>();
    for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
    const userMap = await users.responses(appId, byUser.keys());
    const assembled = new Map<string, Awaited<ReturnType<MessageAssembler['one']>>>();
    for (const [userId, list] of byUser) {
      // A message hidden from the user since the reminder was set (truncation, clear_history) takes it along.
      const windowOf = await viewerWindows(
        messages.repo,
        appId,
        list.map((r) => r.cid),
        userId,
      );
      const present = list
        .map((r) => messageRows.get(r.message_id))
        .filter((m): m is MessageRow => !!m && inWindow(windowOf(m.cid), m));
      for (const message of await assembler.assemble(appId, present, userId))
        assembled.set(`${userId}\u0000${message.id}`, message);
    }
    const result: ReminderResponse[] = [];
    for (const row of rows) {
      const message = assembled.get(`${row.user_id}\u0000${row.message_id}`);
      // A hard-deleted message takes its reminders with it.
      if (!message) continue;
      result.push({ ...toReminderBase(row), user: userOf(userMap, row.user_id), message });
    }
    return result;
  }

  function eventOf(type: string, reminder: ReminderResponse): JsonObject {
    const [channelType, ...rest] = reminder.channel_cid.split(':');
    return {
      type,
      cid: reminder.channel_cid,
      channel_type: channelType,
      channel_id: rest.join(':'),
      message_id: reminder.message_id,
      user_id: reminder.user_id,
      reminder,
      created_at: deps.clock.now(),
    };
  }

  async function one(appId: string, row: ReminderRow): Promise<ReminderResponse> {
    const [reminder] = await responses(appId, [row]);
    if (!reminder) throw chatError.notFound(REMINDER_MISSING);
    return reminder;
  }

  return {
    async create(actor, messageId, body) {
      const userId = actingUser(actor, body.user_id);
      const message = await messageFor(actor, userId, messageId);
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
        if (await repo.get(actor.appId, userId, messageId))
          throw chatError.input(`user ${userId} ${REMINDER_EXISTS}`);
        throw error;
      }
      if (remindAt) scheduler.reschedule();
      const reminder = await one(actor.appId, row);
      events.toUser(actor.appId, userId, eventOf('reminder.created', reminder));
      return { reminder };
    },

    async update(actor, messageId, body) {
      const userId = actingUser(actor, body.user_id);
      await messageFor(actor, userId, messageId);
      const existing = await repo.get(actor.appId, userId, messageId);
      if (!existing) throw chatError.notFound(REMINDER_MISSING);
      const remindAt = 'remind_at' in body ? remindAtOf(body.remind_at) : existing.remind_at;
      const now = deps.clock.now();
      const patch = { remind_at: remindAt, due_sent: 0, updated_at: now };
      await deps.writes.run((trx) =>
        repo.update(trx, { appId: actor.appId, userId, messageId }, patch),
      );
      scheduler.reschedule();
      const reminder = await one(actor.appId, { ...existing, ...patch });
      events.toUser(actor.appId, userId, eventOf('reminder.updated', reminder));
      return { reminder };
    },

    async remove(actor, messageId, given) {
      const userId = actingUser(actor, given);
      const existing = await repo.get(actor.appId, userId, messageId);
      if (!existing) throw chatError.notFound(REMINDER_MISSING);
      await messages.accessMessage(actor.isServer ? { ...actor, userId } : actor, messageId);
      const reminder = await one(actor.appId, existing);
      await deps.writes.run((trx) => repo.remove(trx, actor.appId, userId, messageId));
      // The client's guard drops reminder.* events without `reminder`; it removes by the top-level message_id.
      events.toUser(actor.appId, userId, eventOf('reminder.deleted', reminder));
      return {};
    },

    async query(actor, body) {
      const userId = actingUser(actor, body.user_id);
      const limit = body.limit ?? PAGE_DEFAULT;
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX)
        throw chatError.input(`limit must be between 1 and ${PAGE_MAX}`);
      if (body.next !== undefined && body.prev !== undefined)
        throw chatError.input('next and prev cannot be used together');
      const fromPrev = body.prev !== undefined && body.prev !== null;
      const offset = fromPrev ? decodeCursor(body.prev, 'prev') : decodeCursor(body.next, 'next');
      const where = compileFilter(body.filter, {
        dialect: deps.dialect,
        entity: 'reminders',
        fields: {
          channel_cid: { kind: 'column', ref: 'cid', type: 'text' },
          message_id: { kind: 'column', ref: 'message_id', type: 'text' },
          user_id: { kind: 'column', ref: 'user_id', type: 'text' },
          created_at: { kind: 'column', ref: 'created_at', type: 'date' },
          updated_at: { kind: 'column', ref: 'updated_at', type: 'date' },
          remind_at: { kind: 'column', ref: 'remind_at', type: 'date', nullable: true },
        },
      });
      const orderBy = compileSort(parseSort(body.sort), {
        dialect: deps.dialect,
        entity: 'reminders',
        fields: {
          channel_cid: sql.ref('cid'),
          created_at: sql.ref('created_at'),
          remind_at: sql.ref('remind_at'),
          updated_at: sql.ref('updated_at'),
        },
      });
      // One extra row tells whether a next page exists.
      const rows = await repo.query(actor.appId, userId, where, orderBy, offset, limit + 1);
      const page = rows.slice(0, limit);
      const reminders = await responses(actor.appId, page);
      return {
        reminders,
        ...(rows.length > limit ? { next: encodeCursor(offset + limit) } : {}),
        ...(offset > 0 ? { prev: encodeCursor(Math.max(0, offset - limit)) } : {}),
      };
    },

    start: () => scheduler.reschedule(),
    stop: () => scheduler.stop(),
  };
}
