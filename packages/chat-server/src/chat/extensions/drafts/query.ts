import { sql } from 'kysely';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { readableChannel } from '../../core/access/visibility.ts';
import type { JsonObject } from '../../core/json.ts';
import { decodeOffsetCursor, encodeOffsetCursor, pageLimit } from '../../core/query/cursor.ts';
import { compileFilter, type Operator } from '../../core/query/filter.ts';
import { compileSort, parseSort } from '../../core/query/sort.ts';
import { draftOwner, draftResponses, draftViewer, type DraftsContext } from './context.ts';
import type { DraftResponse } from './serialize.ts';

/** `parent_id` is '' for channel drafts, so `$exists` asks whether it is a thread draft. */
function parentIdCondition(op: Operator, value: unknown) {
  if (op === '$exists') return value ? sql<boolean>`parent_id <> ''` : sql<boolean>`parent_id = ''`;
  if (op === '$eq' && typeof value === 'string') return sql<boolean>`parent_id = ${value}`;
  if (op === '$in' && Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return value.length
      ? sql<boolean>`parent_id in (${sql.join(value as string[])})`
      : sql<boolean>`1 = 0`;
  throw chatError.input(`operator ${op} is not supported for parent_id`);
}

function draftsFilter(ctx: DraftsContext, filter: unknown) {
  return compileFilter(filter ?? {}, {
    dialect: ctx.deps.dialect,
    entity: 'drafts',
    fields: {
      channel_cid: { kind: 'column', ref: 'cid', type: 'text' },
      created_at: { kind: 'column', ref: 'updated_at', type: 'date' },
      parent_id: { kind: 'custom', build: parentIdCondition },
    },
  });
}

function draftsOrder(ctx: DraftsContext, given: unknown) {
  const sort = parseSort(given);
  return compileSort(sort.length ? sort : [{ field: 'created_at', direction: -1 }], {
    dialect: ctx.deps.dialect,
    entity: 'drafts',
    fields: { created_at: sql`updated_at` },
  });
}

export async function queryDrafts(
  ctx: DraftsContext,
  actor: Actor,
  body: JsonObject,
): Promise<{ drafts: DraftResponse[]; next?: string; prev?: string }> {
  const userId = draftOwner(actor, body.user_id);
  const limit = pageLimit(body.limit, 25, 100);
  const offset = body.prev
    ? Math.max(0, decodeOffsetCursor(body.prev, 'prev') - limit)
    : decodeOffsetCursor(body.next, 'next');
  // Only drafts in channels their owner can still read (access/visibility.ts): a page is then full.
  const readable = readableChannel(
    await draftViewer(ctx, actor, userId),
    sql.ref('drafts.app_id'),
    sql.ref('drafts.cid'),
    ctx.deps.channelTypes,
  );
  const where = sql<boolean>`(${draftsFilter(ctx, body.filter)} and ${readable})`;
  const orderBy = draftsOrder(ctx, body.sort);
  const rows = await ctx.repo.query(actor.appId, userId, where, orderBy, limit + 1, offset);
  const page = rows.slice(0, limit);
  const result: { drafts: DraftResponse[]; next?: string; prev?: string } = {
    drafts: await draftResponses(ctx, actor.appId, userId, page),
  };
  if (rows.length > limit) result.next = encodeOffsetCursor(offset + limit);
  if (offset > 0) result.prev = encodeOffsetCursor(offset);
  return result;
}
