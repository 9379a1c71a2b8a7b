import { topics, type BusMessage } from '../../../pubsub/pubsub.ts';
import type { ChatDeps } from '../deps.ts';

export interface PublishOptions {
  skipConnectionIds?: string[];
  skipUserIds?: string[];
  skipWatchersOf?: string;
  onlyWatchersOf?: string;
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
  /**
   * One event to several users, each frame carrying that user's own fields (unread totals): the shared part is
   * encoded once and each user's fields are appended to its text. The event must not hold those keys itself.
   */
  toEachUser(
    appId: string,
    event: object,
    fieldsByUser: ReadonlyMap<string, Record<string, unknown>>,
    options?: PublishOptions,
  ): void;
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
    if (options?.onlyWatchersOf) bus.onlyWatchersOf = options.onlyWatchersOf;
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
    toEachUser: (appId, event, fieldsByUser, options) => {
      if (fieldsByUser.size === 0) return;
      const shared = message(event, options);
      const open = shared.frame.slice(0, -1);
      const separator = open === '{' ? '' : ',';
      for (const [userId, fields] of fieldsByUser) {
        const own = JSON.stringify(fields);
        const frame = own === '{}' ? shared.frame : `${open}${separator}${own.slice(1)}`;
        publish(topics.user(appId, userId), { ...shared, frame });
      }
    },
    toPresenceFollowers: (appId, userId, event) =>
      publish(topics.presence(appId, userId), message(event)),
  };
}
