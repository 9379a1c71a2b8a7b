import { sql, type RawBuilder } from 'kysely';
import { normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { JsonObject } from '../json.ts';
import { boundedInt, PAGE_BOUNDS } from '../query/bounds.ts';
import { parseSort } from '../query/sort.ts';

/*
 * channel.getPinnedMessages(options, sort): pins are ordered by pinned_at (ties by id). `id_lt` and friends name a
 * pinned message and mean "pinned before / after that one"; `pinned_at_before` and friends bound the pin time. The
 * rows nearest the cursor are fetched first, so `{id_gt: x}` under a newest-first sort is the page just after x.
 */

const PINNED_DEFAULT = 30;
const PINNED_MAX = 300;

type Op = '<' | '<=' | '>' | '>=';

const ID_BOUNDS: Record<string, Op> = { id_lt: '<', id_lte: '<=', id_gt: '>', id_gte: '>=' };
const TIME_BOUNDS: Record<string, Op> = {
  pinned_at_before: '<',
  pinned_at_before_or_equal: '<=',
  pinned_at_after: '>',
  pinned_at_after_or_equal: '>=',
};

export interface PinnedPage {
  limit: number;
  offset: number;
  conditions: RawBuilder<boolean>[];
  /** The order the rows are fetched in: nearest the cursor first. */
  fetch: 'asc' | 'desc';
  /** The order the caller asked for. */
  order: 'asc' | 'desc';
}

/** Where a cursor message stands in the pin order; undefined when it is not a current pin of this channel. */
export type PinPosition = (
  messageId: string,
) => Promise<{ pinnedAt: string; id: string } | undefined>;

export async function parsePinnedPage(
  payload: JsonObject,
  positionOf: PinPosition,
): Promise<PinnedPage> {
  const limit = boundedInt(payload.limit, 'limit', {
    min: 0,
    max: PINNED_MAX,
    fallback: PINNED_DEFAULT,
  });
  const offset = boundedInt(payload.offset, 'offset', {
    min: 0,
    max: PAGE_BOUNDS.maxOffset,
    fallback: 0,
  });
  const order = pinnedOrder(payload.sort);
  const conditions: RawBuilder<boolean>[] = [];
  let lower = false;
  let upper = false;
  for (const [name, op] of Object.entries(ID_BOUNDS)) {
    const value = payload[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || !value) throw chatError.input(`${name} must be a message id`);
    const at = await positionOf(value);
    if (!at) throw chatError.input(`${name} must name a pinned message of this channel`);
    const strict = op === '<' || op === '>' ? sql.raw(op) : sql.raw(op.slice(0, 1));
    conditions.push(
      sql<boolean>`(pinned_at ${strict} ${at.pinnedAt} or (pinned_at = ${at.pinnedAt} and id ${sql.raw(op)} ${at.id}))`,
    );
    if (op.startsWith('>')) lower = true;
    else upper = true;
  }
  for (const [name, op] of Object.entries(TIME_BOUNDS)) {
    const value = payload[name];
    if (value === undefined || value === null) continue;
    const iso = typeof value === 'string' ? normalizeIso(value) : null;
    if (!iso) throw chatError.input(`${name} must be an RFC 3339 date`);
    conditions.push(sql<boolean>`pinned_at ${sql.raw(op)} ${iso}`);
    if (op.startsWith('>')) lower = true;
    else upper = true;
  }
  if (payload.id_around !== undefined || payload.pinned_at_around !== undefined)
    throw chatError.input('id_around and pinned_at_around are not supported for pinned messages');
  const fetch = lower && !upper ? 'asc' : upper && !lower ? 'desc' : order;
  return { limit, offset, conditions, fetch, order };
}

/** Pinned messages sort by pinned_at only, newest pin first unless asked otherwise. */
function pinnedOrder(raw: unknown): 'asc' | 'desc' {
  const items = parseSort(raw);
  if (items.length === 0) return 'desc';
  if (items.length > 1 || items[0]!.field !== 'pinned_at')
    throw chatError.input('sort on pinned messages supports pinned_at only');
  return items[0]!.direction === 1 ? 'asc' : 'desc';
}
