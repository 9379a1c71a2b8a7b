import { isoFromMicros, MAX_ISO_MS } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';

/** Whom the request acts for: a server may name any user, everyone else acts for themselves. */
export function actingUser(actor: Actor, body: JsonObject): string {
  const given = typeof body.user_id === 'string' ? body.user_id : undefined;
  const id = actor.isServer ? (given ?? actor.userId) : actor.userId;
  if (!id) throw chatError.input('user_id is required');
  if (actor.role === 'anonymous') throw chatError.notAllowed('anonymous users cannot mute');
  return id;
}

/** When a mute of `amount` units ends, or null for one without end. */
export function expiry(amount: unknown, unitMs: number, name: string): string | null {
  if (amount === undefined || amount === null || amount === 0) return null;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0)
    throw chatError.input(`${name} must be a positive number`);
  const until = Date.now() + amount * unitMs;
  if (until > MAX_ISO_MS) throw chatError.input(`${name} ends after the year 9999`);
  return isoFromMicros(until * 1000);
}

export function targetsOf(body: JsonObject): string[] {
  const list = Array.isArray(body.target_ids) ? body.target_ids : [body.target_id];
  const ids = list.filter((id): id is string => typeof id === 'string' && id.length > 0);
  if (ids.length === 0) throw chatError.input('target_id is required');
  return ids;
}

/** The channel cids of a (un)mute request, however the client sent them. */
export function requestedCids(body: JsonObject): unknown[] {
  return Array.isArray(body.channel_cids) ? body.channel_cids : [body.channel_cid];
}
