import { requireFeature } from '../../core/channel-types/features.ts';
import { normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import { toWatchersWhoSee } from '../../core/access/visibility.ts';
import { coordinate } from './message-location.ts';
import type { LocationsRepo, SharedLocationRow } from './repo.ts';
import { channelEvent } from '../../core/wire/events.ts';
import type { SharedLocationResponse } from '../../core/wire/types.ts';
import { toLocationResponse } from './serialize.ts';

export interface LocationsService {
  /** PUT /users/live_locations: moves or stops a live location; answers with the flat location. */
  update(actor: Actor, body: JsonObject): Promise<SharedLocationResponse>;
  active(actor: Actor): Promise<{ active_live_locations: SharedLocationResponse[] }>;
}

export interface LocationsContext {
  deps: ChatDeps;
  repo: LocationsRepo;
  messages: MessagesService;
  events: EventPublisher;
}

export function createLocationsService({
  deps,
  repo,
  messages,
  events,
}: LocationsContext): LocationsService {
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
      const { row, access } = await messages.accessMessage(
        actor.isServer ? { ...actor, userId } : actor,
        messageId,
      );
      requireFeature(access.type, 'shared_locations');
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
      // The carrying message's row (read above) says who may see it: its date, author and author-only flags.
      await toWatchersWhoSee(deps.db, events, actor.appId, channel, row, event);
      return toLocationResponse({ ...location, ...patch });
    },

    async active(actor) {
      if (!actor.userId) throw chatError.input('user_id is required');
      const rows = await repo.activeFor(actor.appId, actor.userId, deps.clock.now());
      return { active_live_locations: rows.map(toLocationResponse) };
    },
  };
}
