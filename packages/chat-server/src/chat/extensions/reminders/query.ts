import { sql } from 'kysely';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { ownerViewer, readableChannel } from '../../core/access/visibility.ts';
import type { JsonObject } from '../../core/json.ts';
import { compileFilter } from '../../core/query/filter.ts';
import { compileSort, parseSort } from '../../core/query/sort.ts';
import { actingUser, reminderResponses, type RemindersContext } from './context.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import type { ReminderResponse } from './serialize.ts';

const PAGE_DEFAULT = 25;
const PAGE_MAX = 100;

function remindersFilter(ctx: RemindersContext, filter: unknown) {
  return compileFilter(filter, {
    dialect: ctx.deps.dialect,
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
}

function remindersOrder(ctx: RemindersContext, given: unknown) {
  return compileSort(parseSort(given), {
    dialect: ctx.deps.dialect,
    entity: 'reminders',
    fields: {
      channel_cid: sql.ref('cid'),
      created_at: sql.ref('created_at'),
      remind_at: sql.ref('remind_at'),
      updated_at: sql.ref('updated_at'),
    },
  });
}

/** The requested page: a bad `limit` is reported before `next` and `prev` given together. */
function pageOf(body: JsonObject): { limit: number; offset: number } {
  const limit = body.limit ?? PAGE_DEFAULT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX)
    throw chatError.input(`limit must be between 1 and ${PAGE_MAX}`);
  if (body.next !== undefined && body.prev !== undefined)
    throw chatError.input('next and prev cannot be used together');
  const fromPrev = body.prev !== undefined && body.prev !== null;
  const offset = fromPrev ? decodeCursor(body.prev, 'prev') : decodeCursor(body.next, 'next');
  return { limit, offset };
}

export async function queryReminders(
  ctx: RemindersContext,
  actor: Actor,
  body: JsonObject,
): Promise<{ reminders: ReminderResponse[]; next?: string; prev?: string }> {
  const userId = actingUser(actor, body.user_id);
  const { limit, offset } = pageOf(body);
  // Only reminders in channels their owner can still read: a page is then full and `next` means more.
  const owner = await ownerViewer({ appId: actor.appId, userId, caller: actor }, (a, u) =>
    ctx.users.roleOf(a, u),
  );
  const readable = readableChannel(
    owner,
    sql.ref('reminders.app_id'),
    sql.ref('reminders.cid'),
    ctx.deps.channelTypes,
  );
  const where = sql<boolean>`(${remindersFilter(ctx, body.filter)} and ${readable})`;
  const orderBy = remindersOrder(ctx, body.sort);
  // One extra row tells whether a next page exists.
  const rows = await ctx.repo.query(actor.appId, userId, where, orderBy, offset, limit + 1);
  const page = rows.slice(0, limit);
  const reminders = await reminderResponses(ctx, actor.appId, page);
  return {
    reminders,
    ...(rows.length > limit ? { next: encodeCursor(offset + limit) } : {}),
    ...(offset > 0 ? { prev: encodeCursor(Math.max(0, offset - limit)) } : {}),
  };
}
