import { sql } from 'kysely';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { readableChannel, visibleToViewer } from '../../core/access/visibility.ts';
import type { ChannelTypeLookup } from '../../core/channel-types.ts';
import type { JsonObject } from '../../core/json.ts';
import { cursorOffset } from '../../core/query/bounds.ts';
import { compileFilter } from '../../core/query/filter.ts';
import { compileSort, parseSort } from '../../core/query/sort.ts';
import { intOf, loadThread, watchChannels, type ThreadsContext } from './context.ts';
import { buildThreads } from './response.ts';

function threadsFilter(ctx: ThreadsContext, filter: unknown) {
  return compileFilter(filter ?? {}, {
    dialect: ctx.deps.dialect,
    entity: 'threads',
    fields: {
      channel_cid: { kind: 'column', ref: 'threads.cid', type: 'text' },
      cid: { kind: 'column', ref: 'threads.cid', type: 'text' },
      parent_message_id: { kind: 'column', ref: 'threads.parent_message_id', type: 'text' },
      created_by_user_id: { kind: 'column', ref: 'threads.created_by_id', type: 'text' },
      last_message_at: { kind: 'column', ref: 'threads.last_message_at', type: 'date' },
      created_at: { kind: 'column', ref: 'threads.created_at', type: 'date' },
      updated_at: { kind: 'column', ref: 'threads.updated_at', type: 'date' },
    },
  });
}

/** The client's ThreadSort fields; no participant ever leaves a thread here, so every participant is active. */
function threadsSort(ctx: ThreadsContext, raw: unknown) {
  return compileSort(parseSort(raw), {
    dialect: ctx.deps.dialect,
    entity: 'threads',
    fields: {
      active_participant_count: sql`threads.participant_count`,
      participant_count: sql`threads.participant_count`,
      reply_count: sql`threads.reply_count`,
      created_at: sql`threads.created_at`,
      updated_at: sql`threads.updated_at`,
      last_message_at: sql`threads.last_message_at`,
      parent_message_id: sql`threads.parent_message_id`,
    },
  });
}

/** Only threads the user can still read, whose parent is not hidden from them. */
function visibleThreads(actor: Actor, types: ChannelTypeLookup) {
  return sql<boolean>`(${readableChannel(actor, sql.ref('threads.app_id'), sql.ref('threads.cid'), types)} and exists (select 1 from messages pm where pm.app_id = threads.app_id and pm.id = threads.parent_message_id and ${visibleToViewer('pm', actor.userId)}))`;
}

export async function queryThreads(
  ctx: ThreadsContext,
  actor: Actor,
  body: JsonObject,
): Promise<{ threads: JsonObject[]; next?: string }> {
  if (!actor.userId) throw chatError.input('user_id is required');
  const limit = intOf(body.limit, 10, 100, 'limit');
  const replyLimit = intOf(body.reply_limit, 3, 100, 'reply_limit');
  const participantLimit = intOf(body.participant_limit, 10, 100, 'participant_limit');
  let offset = 0;
  if (typeof body.next === 'string' && body.next) {
    offset = cursorOffset(Number(Buffer.from(body.next, 'base64url').toString('utf8')), 'next');
  }
  const where = threadsFilter(ctx, body.filter);
  const rows = await ctx.repo.forUser(
    actor.appId,
    actor.userId,
    sql<boolean>`(${where} and ${visibleThreads(actor, ctx.deps.channelTypes)})`,
    limit + 1,
    offset,
    threadsSort(ctx, body.sort),
  );
  const page = rows.slice(0, limit);
  const threads = await buildThreads(ctx, actor, page, { replyLimit, participantLimit });
  if (body.watch === true)
    await watchChannels(
      ctx,
      actor,
      page.map((r) => r.cid),
    );
  const result: { threads: JsonObject[]; next?: string } = { threads };
  if (rows.length > limit) result.next = Buffer.from(String(offset + limit)).toString('base64url');
  return result;
}

export async function getThread(
  ctx: ThreadsContext,
  actor: Actor,
  parentId: string,
  query: JsonObject,
): Promise<{ thread: JsonObject }> {
  const { row } = await loadThread(ctx, actor, parentId);
  const [thread] = await buildThreads(ctx, actor, [row], {
    replyLimit: intOf(query.reply_limit, 3, 100, 'reply_limit'),
    participantLimit: intOf(query.participant_limit, 100, 100, 'participant_limit'),
  });
  if (!thread) throw chatError.notFound(`thread ${parentId} does not exist`);
  if (query.watch === true || query.watch === 'true') await watchChannels(ctx, actor, [row.cid]);
  return { thread };
}
