import { requireFeature } from '../../core/channel-types/features.ts';
import { normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { BeforeMessageStored } from '../../core/extension-points.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import type { MessageEnricher } from '../../core/messages/assembler.ts';
import type { LocationsRepo, SharedLocationRow } from './repo.ts';
import { toLocationResponse } from './serialize.ts';

/** The shortest live share the composer offers (one minute). */
export const MIN_LIVE_DURATION_MS = 60_000;
/** The client computes end_at before sending; the request's transit must not push a 60 s share under the bar. */
const TRANSIT_SLACK_MS = 5_000;

export function coordinate(value: unknown, name: string, limit: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit)
    throw chatError.input(
      `shared_location.${name} is required (a number from -${limit} to ${limit})`,
    );
  return value;
}

function requiredString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw chatError.input(`shared_location.${name} is required`);
  return value;
}

function readEndAt(input: JsonObject): string | null {
  if (input.end_at === undefined || input.end_at === null) return null;
  const endAt =
    typeof input.end_at === 'string' || typeof input.end_at === 'number'
      ? normalizeIso(input.end_at)
      : null;
  if (!endAt) throw chatError.input('shared_location.end_at must be a date');
  if (Date.parse(endAt) - Date.now() < MIN_LIVE_DURATION_MS - TRANSIT_SLACK_MS)
    throw chatError.input('a live location must be shared for at least 60 seconds');
  return endAt;
}

/** A message's shared location: checked and stored with the message, and embedded wherever the message is. */
export interface MessageLocations {
  beforeStored: BeforeMessageStored;
  enrich: MessageEnricher;
}

export function createMessageLocations(context: {
  deps: ChatDeps;
  repo: LocationsRepo;
}): MessageLocations {
  const { deps, repo } = context;
  // A message is assembled for its message.new event before its transaction commits; its location waits here.
  const pending = new Map<string, SharedLocationRow>();
  const pendingKey = (appId: string, messageId: string) => `${appId}\u0000${messageId}`;

  const beforeStored: BeforeMessageStored = async ({
    access,
    userId,
    row,
    custom,
    system,
    onSettled,
  }) => {
    if (system || !('shared_location' in custom)) return undefined;
    const input = custom.shared_location;
    // It is a column of its own, never custom data.
    delete custom.shared_location;
    row.custom = JSON.stringify(custom);
    if (input === undefined || input === null) return undefined;
    if (!isPlainObject(input)) throw chatError.input('shared_location must be an object');
    requireFeature(access.type, 'shared_locations');
    if (!access.permissions.has('share-location'))
      throw chatError.notAllowed(`sharing a location in ${access.channel.cid} is not allowed`);
    const deviceId = requiredString(input.created_by_device_id, 'created_by_device_id');
    const messageId = requiredString(input.message_id, 'message_id');
    if (messageId !== row.id)
      throw chatError.input('shared_location.message_id must be the id of the message');
    const latitude = coordinate(input.latitude, 'latitude', 90);
    const longitude = coordinate(input.longitude, 'longitude', 180);
    const endAt = readEndAt(input);
    const now = deps.clock.now();
    const location: SharedLocationRow = {
      app_id: row.app_id,
      message_id: row.id,
      cid: access.channel.cid,
      user_id: userId,
      created_by_device_id: deviceId,
      latitude,
      longitude,
      end_at: endAt,
      created_at: now,
      updated_at: now,
    };
    const key = pendingKey(row.app_id, row.id);
    pending.set(key, location);
    // Assembling the message.new payload takes it; a send refused before that (a later check) must not leave it.
    onSettled(() => pending.delete(key));
    return async (trx) => {
      pending.delete(key);
      await repo.insert(trx, location);
    };
  };

  const enrich: MessageEnricher = async (appId, rows, _viewerId, { fresh }) => {
    const result = new Map<string, Record<string, unknown>>();
    const live = rows.filter((r) => r.type !== 'deleted');
    for (const row of live) {
      const key = pendingKey(appId, row.id);
      const waiting = pending.get(key);
      if (waiting) {
        pending.delete(key);
        result.set(row.id, { shared_location: toLocationResponse(waiting) });
      }
    }
    // A send not yet committed has no stored location: skip the lookup on every send.
    const stored = fresh
      ? new Map<string, SharedLocationRow>()
      : await repo.forMessages(
          appId,
          live.filter((r) => !result.has(r.id)).map((r) => r.id),
        );
    for (const [id, location] of stored)
      result.set(id, { shared_location: toLocationResponse(location) });
    // A client editing the message echoes shared_location back; that copy lands in custom data and must not show.
    for (const row of rows) {
      if (!result.has(row.id) && row.custom.includes('"shared_location"'))
        result.set(row.id, { shared_location: undefined });
    }
    return result;
  };

  return { beforeStored, enrich };
}
