import { chatError } from '../../../errors.ts';
import { requirePermission, requireServerSide, type Actor } from '../access/access.ts';
import { isLargeChannel } from '../channels/large-channel.ts';
import {
  assertChannelId,
  assertChannelType,
  type ChannelAccess,
  type ChannelsService,
} from '../channels/service.ts';
import type { ChatDeps } from '../deps.ts';
import { isPlainObject, type JsonObject } from '../json.ts';
import { privacyAllows } from '../users/privacy.ts';
import type { UsersService } from '../users/service.ts';
import { channelActivityEvent, customChannelEvent } from '../wire/events.ts';
import type { EventPublisher } from './publisher.ts';

/**
 * Types the server owns; nobody may forge them through sendEvent. Every family stream-chat handles as the server's
 * (its EVENT_MAP), whether the server sends it into channels or only to a user's own connections: the client acts on
 * a draft, reminder or live-location event wherever it arrives, so one relayed through a channel would rewrite the
 * watchers' own composers, reminders and maps. Also the client's local families and this product's own (`daohuu.`,
 * the in-app notifications).
 */
const SERVER_EVENT_PREFIXES = [
  'message.',
  'reaction.',
  'member.',
  'channel.',
  'channels.',
  'notification.',
  'user.',
  'health.',
  'thread.',
  'poll.',
  'connection.',
  'draft.',
  'reminder.',
  'live_location_sharing.',
  'capabilities.',
  'offline_reactions.',
  'transport.',
  'daohuu.',
];

/** Keys of a sent event the server sets itself; a client's values for them are dropped. */
const SERVER_SET_KEYS = new Set([
  'received_at',
  'type',
  'cid',
  'channel_id',
  'channel_type',
  'created_at',
]);

const isTypingEvent = (type: string): type is 'typing.start' | 'typing.stop' =>
  type === 'typing.start' || type === 'typing.stop';

export interface ChannelEventsService {
  /** POST /channels/{type}/{id}/event: typing.start / typing.stop and custom events, relayed to watchers. */
  send(actor: Actor, typeName: string, id: string, body: JsonObject): Promise<{ event: object }>;
  /** POST /users/{id}/event (sendUserCustomEvent): a custom event for one user's connections, server-side only. */
  sendToUser(actor: Actor, userId: string, body: JsonObject): Promise<JsonObject>;
}

const MAX_EVENT_BYTES = 5120;

/** The event of a request body, with a type and within the size limit. */
function customEventInput(body: JsonObject): JsonObject & { type: string } {
  const input = body.event;
  if (!isPlainObject(input) || typeof input.type !== 'string' || !input.type)
    throw chatError.input('event.type is required');
  if (Buffer.byteLength(JSON.stringify(input)) > MAX_EVENT_BYTES)
    throw chatError.payloadTooBig('events are limited to 5 KiB');
  return input as JsonObject & { type: string };
}

/** Nobody sends an event under a type the server owns (a forged message.new, user.updated, …). */
function refuseServerType(type: string): void {
  if (SERVER_EVENT_PREFIXES.some((prefix) => type.startsWith(prefix)))
    throw chatError.eventNotSupported(`event type ${type} is the server's own and cannot be sent`);
}

/** The sender's fields of an event: everything but what the server sets itself. */
function senderFields(input: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(input).filter(([key]) => !SERVER_SET_KEYS.has(key)));
}

/** A server-side event names the user it speaks for in the event itself (`user_id`, or `user: {id}`). */
function namedUser(actor: Actor, input: JsonObject): string | null {
  if (actor.userId || !actor.isServer) return actor.userId;
  if (typeof input.user_id === 'string') return input.user_id;
  if (isPlainObject(input.user) && typeof input.user.id === 'string') return input.user.id;
  return null;
}

/** What the channel events service needs from the rest of the core. */
export interface ChannelEventsContext {
  deps: ChatDeps;
  channels: ChannelsService;
  users: UsersService;
  events: EventPublisher;
}

/** Refuses the event unless the channel type and the caller's permissions allow its kind. */
function requireAllowed(access: ChannelAccess, type: string): void {
  if (isTypingEvent(type)) {
    if (!access.type.config.typing_events)
      throw chatError.featureNotSupported('typing events are disabled for this channel type');
    requirePermission(access.permissions, 'send-typing-events', 'sending typing events');
    return;
  }
  refuseServerType(type);
  if (!access.type.config.custom_events)
    throw chatError.featureNotSupported('custom events are disabled for this channel type');
  requirePermission(access.permissions, 'send-custom-events', 'sending custom events');
}

export function createChannelEventsService({
  deps,
  channels,
  users,
  events,
}: ChannelEventsContext): ChannelEventsService {
  return {
    async send(actor, typeName, id, body) {
      assertChannelType(typeName);
      assertChannelId(id);
      const input = customEventInput(body);
      const access = await channels.access(actor, `${typeName}:${id}`);
      requirePermission(access.permissions, 'read-channel', 'sending events to this channel');
      const type = input.type;
      requireAllowed(access, type);
      const userId = namedUser(actor, input);
      const channel = access.channel;
      const fields = senderFields(input);
      if (userId) {
        fields.user = await users.response(actor.appId, userId);
        // A client's own `user_id` could name someone else beside the `user` that is really them.
        if ('user_id' in fields) fields.user_id = userId;
      }
      const now = deps.clock.now();
      const event = isTypingEvent(type)
        ? channelActivityEvent(type, channel, now, fields)
        : customChannelEvent(type, channel, now, fields);
      // A user who turned typing indicators off is answered as usual, but nobody is told they type; nor is anyone
      // in a large channel (Stream's automatic feature throttling).
      const typingHidden =
        isTypingEvent(type) &&
        ((isPlainObject(fields.user) && !privacyAllows(fields.user, 'typing_indicators')) ||
          isLargeChannel(deps, actor.appId, channel.cid));
      if (!typingHidden) events.toChannel(actor.appId, channel.cid, event);
      return { event };
    },

    async sendToUser(actor, userId, body) {
      requireServerSide(actor, 'custom events to a user can only be sent server-side');
      const input = customEventInput(body);
      refuseServerType(input.type);
      if (!(await users.getRow(actor.appId, userId)))
        throw chatError.notFound(`user ${userId} does not exist`);
      events.toUser(actor.appId, userId, {
        ...senderFields(input),
        type: input.type,
        created_at: deps.clock.now(),
      });
      return {};
    },
  };
}
