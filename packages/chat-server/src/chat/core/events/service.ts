import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import { assertChannelId, assertChannelType, type ChannelsService } from '../channels/service.ts';
import type { ChatDeps } from '../deps.ts';
import { isPlainObject, type JsonObject } from '../json.ts';
import type { UsersService } from '../users/service.ts';
import type { EventPublisher } from './publisher.ts';

/** Types the server owns; clients may not forge them through sendEvent. */
const SERVER_EVENT_PREFIXES = [
  'message.',
  'reaction.',
  'member.',
  'channel.',
  'notification.',
  'user.',
  'health.',
  'thread.',
  'poll.',
  'connection.',
];

export interface ChannelEventsService {
  /** POST /channels/{type}/{id}/event: typing.start / typing.stop and custom events, relayed to watchers. */
  send(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ event: JsonObject }>;
}

export function createChannelEventsService(
  deps: ChatDeps,
  channels: ChannelsService,
  users: UsersService,
  events: EventPublisher,
): ChannelEventsService {
  return {
    async send(actor, typeName, id, body) {
      assertChannelType(typeName);
      assertChannelId(id);
      const input = body.event;
      if (!isPlainObject(input) || typeof input.type !== 'string' || !input.type)
        throw chatError.input('event.type is required');
      const access = await channels.access(actor, `${typeName}:${id}`);
      requirePermission(access.permissions, 'read-channel', 'sending events to this channel');
      const type = input.type;
      if (type === 'typing.start' || type === 'typing.stop') {
        if (!access.type.config.typing_events)
          throw chatError.featureNotSupported('typing events are disabled for this channel type');
        requirePermission(access.permissions, 'send-typing-events', 'sending typing events');
      } else {
        if (SERVER_EVENT_PREFIXES.some((prefix) => type.startsWith(prefix)))
          throw chatError.eventNotSupported(`event type ${type} cannot be sent by clients`);
        if (!access.type.config.custom_events)
          throw chatError.featureNotSupported('custom events are disabled for this channel type');
        requirePermission(access.permissions, 'send-custom-events', 'sending custom events');
      }
      if (Buffer.byteLength(JSON.stringify(input)) > 5120)
        throw chatError.payloadTooBig('events are limited to 5 KiB');
      const userId = actor.userId;
      const channel = access.channel;
      const { received_at: _receivedAt, ...rest } = input;
      const event: JsonObject = {
        ...rest,
        type,
        cid: channel.cid,
        channel_id: channel.id,
        channel_type: channel.type,
        created_at: deps.clock.now(),
        ...(userId ? { user: await users.response(actor.appId, userId) } : {}),
      };
      events.toChannel(actor.appId, channel.cid, event);
      return { event };
    },
  };
}
