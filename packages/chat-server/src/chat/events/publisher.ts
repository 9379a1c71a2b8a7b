import { topics, type BusMessage } from '../../pubsub/pubsub.ts';
import type { ChatDeps } from '../deps.ts';

export interface PublishOptions {
  skipConnectionIds?: string[];
  skipUserIds?: string[];
  skipWatchersOf?: string;
}

/**
 * The only way services emit websocket events. Each event is JSON-encoded once here; the frame text travels on
 * the bus and every receiving socket gets the same bytes. Events carry no per-user fields on shared topics.
 */
export interface EventPublisher {
  toChannel(appId: string, cid: string, event: object, options?: PublishOptions): void;
  toUser(appId: string, userId: string, event: object, options?: PublishOptions): void;
  /** One frame, encoded once, to many users' topics. */
  toUsers(appId: string, userIds: Iterable<string>, event: object, options?: PublishOptions): void;
  toPresenceFollowers(appId: string, userId: string, event: object): void;
}

export function createEventPublisher(deps: Pick<ChatDeps, 'pubsub' | 'log'>): EventPublisher {
  const publish = (topic: string, message: BusMessage) => {
    deps.pubsub
      .publish(topic, message)
      .catch((error: unknown) => deps.log.warn({ err: error, topic }, 'publish failed'));
  };
  const message = (event: object, options?: PublishOptions): BusMessage => {
    const bus: BusMessage = { frame: JSON.stringify(event) };
    if (options?.skipConnectionIds?.length) bus.skipConnectionIds = options.skipConnectionIds;
    if (options?.skipUserIds?.length) bus.skipUserIds = options.skipUserIds;
    if (options?.skipWatchersOf) bus.skipWatchersOf = options.skipWatchersOf;
    return bus;
  };
  return {
    toChannel: (appId, cid, event, options) =>
      publish(topics.channel(appId, cid), message(event, options)),
    toUser: (appId, userId, event, options) =>
      publish(topics.user(appId, userId), message(event, options)),
    toUsers: (appId, userIds, event, options) => {
      const bus = message(event, options);
      for (const userId of userIds) publish(topics.user(appId, userId), bus);
    },
    toPresenceFollowers: (appId, userId, event) =>
      publish(topics.presence(appId, userId), message(event)),
  };
}
