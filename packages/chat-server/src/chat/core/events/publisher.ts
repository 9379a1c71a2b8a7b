import { topics, type BusEntry, type BusMessage } from '../../../pubsub/pubsub.ts';
import { trackPublish } from '../../../pubsub/settle.ts';
import type { ChatDeps } from '../deps.ts';
import type { ChannelEventOrigin, EventAudienceFilter } from '../extension-points.ts';

export interface PublishOptions {
  skipConnectionIds?: string[];
  skipUserIds?: string[];
  skipWatchersOf?: string;
  onlyWatchersOf?: string;
  /** See BusMessage.watcherCount (channel topics only). */
  watcherCount?: number;
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

/** The channel and the user an event comes from, when it has both (what audience filters decide on). */
function originOf(event: object): Omit<ChannelEventOrigin, 'appId'> | undefined {
  const e = event as {
    cid?: unknown;
    channel_member_count?: unknown;
    user?: { id?: unknown };
    user_id?: unknown;
    message?: { user?: { id?: unknown } };
  };
  const userId = e.user?.id ?? e.user_id ?? e.message?.user?.id;
  if (typeof e.cid !== 'string' || e.cid === '*' || typeof userId !== 'string') return undefined;
  const memberCount =
    typeof e.channel_member_count === 'number' ? e.channel_member_count : undefined;
  return { cid: e.cid, userId, memberCount };
}

/** Every filter's answer; a filter that throws at once counts as a failed lookup. */
function answersOf(
  filters: readonly EventAudienceFilter[],
  origin: ChannelEventOrigin,
): (string[] | Promise<string[]>)[] {
  try {
    return filters.map((filter) => filter(origin));
  } catch (error) {
    return [Promise.reject(error instanceof Error ? error : new Error(String(error)))];
  }
}

/**
 * Runs the audience filters before an event goes out. When every filter answers at once and nothing of the channel
 * is waiting, the event leaves immediately. Otherwise the lookups start at once (concurrently), but the events of
 * one channel are published in a chain, so watchers still see them in the order they were made.
 */
function createAudience(deps: Pick<ChatDeps, 'log'>, filters: readonly EventAudienceFilter[]) {
  const tails = new Map<string, Promise<void>>();
  return (appId: string, event: object, send: (excluded: readonly string[]) => void): void => {
    const origin = filters.length > 0 ? originOf(event) : undefined;
    if (!origin) return send([]);
    const key = `${appId}\n${origin.cid}`;
    const answers = answersOf(filters, { appId, ...origin });
    const tail = tails.get(key);
    if (!tail && answers.every((answer) => Array.isArray(answer)))
      return send((answers as string[][]).flat());
    const lookup = Promise.all(answers);
    // The chain below reads the lookup only once the channel's earlier events are out; a lookup that fails before
    // then (the database closing under a shutdown, say) must not count as an unhandled rejection meanwhile.
    lookup.catch(() => undefined);
    const next = (tail ?? Promise.resolve())
      .then(() => lookup)
      .then((excluded) => send(excluded.flat()))
      .catch((error: unknown) => {
        // Failing open would leak what a filter hides, so the event is dropped and the failure logged.
        deps.log.warn({ err: error, cid: origin.cid }, 'event audience lookup failed');
      });
    tails.set(key, next);
    trackPublish(next);
    void next.then(() => {
      if (tails.get(key) === next) tails.delete(key);
    });
  };
}

export function createEventPublisher(
  deps: Pick<ChatDeps, 'pubsub' | 'log'>,
  audienceFilters: readonly EventAudienceFilter[] = [],
): EventPublisher {
  const publish = (topic: string, message: BusMessage) => {
    deps.pubsub
      .publish(topic, message)
      .catch((error: unknown) => deps.log.warn({ err: error, topic }, 'publish failed'));
  };
  // Many users' topics at once: one bus message between nodes instead of one per user.
  const publishEach = (entries: BusEntry[]) => {
    if (entries.length === 0) return;
    deps.pubsub
      .publishEach(entries)
      .catch((error: unknown) =>
        deps.log.warn({ err: error, topics: entries.length }, 'publish failed'),
      );
  };
  const message = (event: object, options?: PublishOptions): BusMessage => {
    const bus: BusMessage = { frame: JSON.stringify(event) };
    if (options?.skipConnectionIds?.length) bus.skipConnectionIds = options.skipConnectionIds;
    if (options?.skipUserIds?.length) bus.skipUserIds = options.skipUserIds;
    if (options?.skipWatchersOf) bus.skipWatchersOf = options.skipWatchersOf;
    if (options?.onlyWatchersOf) bus.onlyWatchersOf = options.onlyWatchersOf;
    if (options?.watcherCount !== undefined) bus.watcherCount = options.watcherCount;
    return bus;
  };
  const audience = createAudience(deps, audienceFilters);
  const without = (options: PublishOptions | undefined, excluded: readonly string[]) =>
    excluded.length === 0
      ? options
      : { ...options, skipUserIds: [...(options?.skipUserIds ?? []), ...excluded] };
  return {
    toChannel: (appId, cid, event, options) =>
      audience(appId, event, (excluded) =>
        publish(topics.channel(appId, cid), message(event, without(options, excluded))),
      ),
    toUser: (appId, userId, event, options) =>
      audience(appId, event, (excluded) => {
        if (!excluded.includes(userId))
          publish(topics.user(appId, userId), message(event, options));
      }),
    toUsers: (appId, userIds, event, options) => {
      const recipients = [...userIds];
      audience(appId, event, (excluded) => {
        const bus = message(event, options);
        publishEach(
          recipients
            .filter((userId) => !excluded.includes(userId))
            .map((userId) => ({ topic: topics.user(appId, userId), message: bus })),
        );
      });
    },
    toEachUser: (appId, event, fieldsByUser, options) => {
      if (fieldsByUser.size === 0) return;
      audience(appId, event, (excluded) => {
        const shared = message(event, options);
        const open = shared.frame.slice(0, -1);
        const separator = open === '{' ? '' : ',';
        const entries: BusEntry[] = [];
        for (const [userId, fields] of fieldsByUser) {
          if (excluded.includes(userId)) continue;
          const own = JSON.stringify(fields);
          const frame = own === '{}' ? shared.frame : `${open}${separator}${own.slice(1)}`;
          entries.push({ topic: topics.user(appId, userId), message: { ...shared, frame } });
        }
        publishEach(entries);
      });
    },
    toPresenceFollowers: (appId, userId, event) =>
      publish(topics.presence(appId, userId), message(event)),
  };
}
