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
 * `id_around` (a pin) and `pinned_at_around` (an instant) centre the page on their pivot instead, as `id_around`
 * does for channel messages: about half the page pinned before it, the rest from it on, one side filling in for the
 * other near either end.
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
  /** The pivot of an `id_around` / `pinned_at_around` page (the pin named by `id_around` belongs to the page). */
  around?: { pinnedAt: string; id: string };
}

/** SQL: the pin is `op` the position `at` in pin order (pinned_at, then id). */
export function pinOrder(op: Op, at: { pinnedAt: string; id: string }): RawBuilder<boolean> {
  const strict = op === '<' || op === '>' ? sql.raw(op) : sql.raw(op.slice(0, 1));
  return sql<boolean>`(pinned_at ${strict} ${at.pinnedAt} or (pinned_at = ${at.pinnedAt} and id ${sql.raw(op)} ${at.id}))`;
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
    conditions.push(pinOrder(op, at));
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
  const around = await aroundPivot(payload, positionOf);
  if (around && (conditions.length > 0 || offset > 0))
    throw chatError.input(
      'id_around and pinned_at_around cannot be combined with other bounds or offset',
    );
  const fetch = lower && !upper ? 'asc' : upper && !lower ? 'desc' : order;
  return { limit, offset, conditions, fetch, order, ...(around ? { around } : {}) };
}

/** The pivot of a page around a pin or an instant; undefined when the payload names neither. */
async function aroundPivot(
  payload: JsonObject,
  positionOf: PinPosition,
): Promise<{ pinnedAt: string; id: string } | undefined> {
  const { id_around: idAround, pinned_at_around: atAround } = payload;
  const hasId = idAround !== undefined && idAround !== null;
  const hasAt = atAround !== undefined && atAround !== null;
  if (hasId && hasAt) throw chatError.input('id_around and pinned_at_around cannot be combined');
  if (hasId) {
    if (typeof idAround !== 'string' || !idAround)
      throw chatError.input('id_around must be a message id');
    const at = await positionOf(idAround);
    if (!at) throw chatError.input('id_around must name a pinned message of this channel');
    return at;
  }
  if (!hasAt) return undefined;
  const iso = typeof atAround === 'string' ? normalizeIso(atAround) : null;
  if (!iso) throw chatError.input('pinned_at_around must be an RFC 3339 date');
  // The empty id sorts before every id, so pins at exactly that instant fall on the later side.
  return { pinnedAt: iso, id: '' };
}

/**
 * Picks the page around a pivot from the pins before it (nearest first) and from it on (nearest first): half the
 * page each, a short side's share going to the other. The result is in pin order, oldest first.
 */
export function centredPins<T>(older: T[], newer: T[], limit: number): T[] {
  const olderCount = Math.min(older.length, Math.max(Math.floor(limit / 2), limit - newer.length));
  const newerCount = Math.min(newer.length, limit - olderCount);
  return [...older.slice(0, olderCount).reverse(), ...newer.slice(0, newerCount)];
}

/** Pinned messages sort by pinned_at only, newest pin first unless asked otherwise. */
function pinnedOrder(raw: unknown): 'asc' | 'desc' {
  const items = parseSort(raw);
  // Stream lists pins oldest first unless asked otherwise (its docs page through them that way).
  if (items.length === 0) return 'asc';
  if (items.length > 1 || items[0]!.field !== 'pinned_at')
    throw chatError.input('sort on pinned messages supports pinned_at only');
  return items[0]!.direction === 1 ? 'asc' : 'desc';
}
