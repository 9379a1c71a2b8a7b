import { normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import { toWatchersWhoSee } from '../../core/access/visibility.ts';
import type { LocationsRepo, SharedLocationRow } from './repo.ts';
import { channelEvent } from '../../core/wire/events.ts';
import type { SharedLocationResponse } from '../../core/wire/types.ts';
import { toLocationResponse } from './serialize.ts';

/** The shortest live share the composer offers (SPEC: minimum shared-location duration 60000 ms). */
export const MIN_LIVE_DURATION_MS = 60_000;
/** The client computes end_at before sending; the request's transit must not push a 60 s share under the bar. */
const TRANSIT_SLACK_MS = 5_000;

export interface LocationsService {
  /** PUT /users/live_locations: moves or stops a live location; answers with the flat location. */
  update(actor: Actor, body: JsonObject): Promise<SharedLocationResponse>;
  active(actor: Actor): Promise<{ active_live_locations: SharedLocationResponse[] }>;
}

function coordinate(value: unknown, name: string, limit: number): number {
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

export interface LocationsContext {
  deps: ChatDeps;
  repo: LocationsRepo;
  messages: MessagesService;
  assembler: MessageAssembler;
  events: EventPublisher;
}

export function createLocationsService({
  deps,
  repo,
  messages,
  assembler,
  events,
}: LocationsContext): LocationsService {
  // A message is assembled for its message.new event before its transaction commits; its location waits here.
  const pending = new Map<string, SharedLocationRow>();
  const pendingKey = (appId: string, messageId: string) => `${appId}\u0000${messageId}`;

  messages.addSendHook(async ({ access, userId, row, custom, system }) => {
    if (system || !('shared_location' in custom)) return undefined;
    const input = custom.shared_location;
    // It is a column of its own, never custom data.
    delete custom.shared_location;
    row.custom = JSON.stringify(custom);
    if (input === undefined || input === null) return undefined;
    if (!isPlainObject(input)) throw chatError.input('shared_location must be an object');
    if (!access.permissions.has('share-location'))
      throw chatError.notAllowed(`sharing a location in ${access.channel.cid} is not allowed`);
    const deviceId = requiredString(input.created_by_device_id, 'created_by_device_id');
    const messageId = requiredString(input.message_id, 'message_id');
    if (messageId !== row.id)
      throw chatError.input('shared_location.message_id must be the id of the message');
    const latitude = coordinate(input.latitude, 'latitude', 90);
    const longitude = coordinate(input.longitude, 'longitude', 180);
    let endAt: string | null = null;
    if (input.end_at !== undefined && input.end_at !== null) {
      endAt =
        typeof input.end_at === 'string' || typeof input.end_at === 'number'
          ? normalizeIso(input.end_at)
          : null;
      if (!endAt) throw chatError.input('shared_location.end_at must be a date');
      if (Date.parse(endAt) - Date.now() < MIN_LIVE_DURATION_MS - TRANSIT_SLACK_MS)
        throw chatError.input('a live location must be shared for at least 60 seconds');
    }
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
    return async (trx) => {
      pending.delete(key);
      await repo.insert(trx, location);
    };
  });

  assembler.addEnricher(async (appId, rows, _viewerId, { fresh }) => {
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
  });

  function actingUser(actor: Actor, body: JsonObject): string {
    const given =
      typeof body.user_id === 'string'
        ? body.user_id
        : isPlainObject(body.user) && typeof body.user.id === 'string'
          ? body.user.id
          : undefined;
    const id = actor.isServer ? (given ?? actor.userId) : actor.userId;
    if (!id) throw chatError.input('user_id is required for server-side calls');
    return id;
  }

  return {
    async update(actor, body) {
      const userId = actingUser(actor, body);
      if (typeof body.message_id !== 'string' || !body.message_id)
        throw chatError.input('message_id is required');
      const messageId = body.message_id;
      const location = await repo.get(actor.appId, messageId);
      if (!location)
        throw chatError.notFound(`shared location for message ${messageId} does not exist`);
      if (location.user_id !== userId)
        throw chatError.notAllowed('only the user sharing this location can update it');
      const { access } = await messages.accessMessage(
        actor.isServer ? { ...actor, userId } : actor,
        messageId,
      );
      if (!location.end_at) throw chatError.input('a static location cannot be updated');
      const now = deps.clock.now();
      if (location.end_at <= now) throw chatError.input('this live location sharing has ended');
      // Stopping sends the whole stored location back (channel_cid, created_at, … are tolerated and ignored).
      const patch: Partial<SharedLocationRow> = { updated_at: now };
      if (body.latitude !== undefined) patch.latitude = coordinate(body.latitude, 'latitude', 90);
      if (body.longitude !== undefined)
        patch.longitude = coordinate(body.longitude, 'longitude', 180);
      if (body.end_at !== undefined && body.end_at !== null) {
        const endAt =
          typeof body.end_at === 'string' || typeof body.end_at === 'number'
            ? normalizeIso(body.end_at)
            : null;
        if (!endAt) throw chatError.input('end_at must be a date');
        // An end in the past stops the share now.
        patch.end_at = endAt < now ? now : endAt;
      }
      await deps.writes.run((trx) => repo.update(trx, actor.appId, messageId, patch));
      const message = await messages.eventMessage(actor.appId, messageId);
      const channel = access.channel;
      // Watchers' map cards are driven only by message.shared_location.
      const event = channelEvent('message.updated', channel, deps.clock.now(), {
        message,
        user: message.user,
      });
      await toWatchersWhoSee(deps.db, events, actor.appId, channel, message.created_at, event);
      return toLocationResponse({ ...location, ...patch });
    },

    async active(actor) {
      if (!actor.userId) throw chatError.input('user_id is required');
      const rows = await repo.activeFor(actor.appId, actor.userId, deps.clock.now());
      return { active_live_locations: rows.map(toLocationResponse) };
    },
  };
}
