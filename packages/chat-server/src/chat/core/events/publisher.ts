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

/** The publishes of one `together` call; the same as EventPublisher's, within the call's app. */
export interface PublishGroup {
  toChannel(cid: string, event: object, options?: PublishOptions): void;
  toUser(userId: string, event: object, options?: PublishOptions): void;
  toUsers(userIds: Iterable<string>, event: object, options?: PublishOptions): void;
  toEachUser(
    event: object,
    fieldsByUser: ReadonlyMap<string, Record<string, unknown>>,
    options?: PublishOptions,
  ): void;
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
  /**
   * Several publishes as one bus message, which every node applies to its sockets in one pass. Split by
   * `skipWatchersOf` / `onlyWatchersOf` ("watchers get message.new, the other members a notification"), they
   * then reach each connection exactly once: no watch or unwatch can land between the parts. The events of one
   * group concern one channel.
   */
  together(appId: string, build: (group: PublishGroup) => void): void;
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

type Answer = string[] | Promise<string[]>;

/** Every filter's answer; a filter that throws at once counts as a failed lookup. */
function answersOf(filters: readonly EventAudienceFilter[], origin: ChannelEventOrigin): Answer[] {
  try {
    return filters.map((filter) => filter(origin));
  } catch (error) {
    return [Promise.reject(error instanceof Error ? error : new Error(String(error)))];
  }
}

const NOBODY: readonly string[] = [];

/**
 * Runs the audience filters before events go out; `send` gets the users each event must skip. When every filter
 * answers at once and nothing of the channel is waiting, the events leave immediately. Otherwise the lookups start
 * at once (concurrently), but the events of one channel are published in a chain, so watchers still see them in
 * the order they were made.
 */
function createAudience(deps: Pick<ChatDeps, 'log'>, filters: readonly EventAudienceFilter[]) {
  const tails = new Map<string, Promise<void>>();
  return (
    appId: string,
    events: readonly object[],
    send: (excluded: ReadonlyArray<readonly string[]>) => void,
  ): void => {
    const origins = filters.length > 0 ? events.map(originOf) : [];
    const first = origins.find((origin) => origin !== undefined);
    if (!first) return send(events.map(() => NOBODY));
    const key = `${appId}\n${first.cid}`;
    // A group's events mostly share their origin (message.new and its notification): one lookup for them.
    const byOrigin = new Map<string, Answer[]>();
    const answers = origins.map((origin) => {
      if (!origin) return [];
      const id = `${origin.cid}\n${origin.userId}\n${origin.memberCount ?? ''}`;
      let found = byOrigin.get(id);
      if (!found) byOrigin.set(id, (found = answersOf(filters, { appId, ...origin })));
      return found;
    });
    const tail = tails.get(key);
    if (!tail && answers.every((list) => list.every((answer) => Array.isArray(answer))))
      return send(answers.map((list) => (list as string[][]).flat()));
    const lookup = Promise.all(answers.map((list) => Promise.all(list)));
    // The chain below reads the lookup only once the channel's earlier events are out; a lookup that fails before
    // then (the database closing under a shutdown, say) must not count as an unhandled rejection meanwhile.
    lookup.catch(() => undefined);
    const next = (tail ?? Promise.resolve())
      .then(() => lookup)
      .then((excluded) => send(excluded.map((lists) => lists.flat())))
      .catch((error: unknown) => {
        // Failing open would leak what a filter hides, so the events are dropped and the failure logged.
        deps.log.warn({ err: error, cid: first.cid }, 'event audience lookup failed');
      });
    tails.set(key, next);
    trackPublish(next);
    void next.then(() => {
      if (tails.get(key) === next) tails.delete(key);
    });
  };
}

/** Events that change nothing stored: see BusMessage.ephemeral. */
const EPHEMERAL = new Set([
  'typing.start',
  'typing.stop',
  'user.watching.start',
  'user.watching.stop',
]);

function busMessage(event: object, options?: PublishOptions): BusMessage {
  const bus: BusMessage = { frame: JSON.stringify(event) };
  if (EPHEMERAL.has((event as { type?: string }).type ?? '')) bus.ephemeral = true;
  if (options?.skipConnectionIds?.length) bus.skipConnectionIds = options.skipConnectionIds;
  if (options?.skipUserIds?.length) bus.skipUserIds = options.skipUserIds;
  if (options?.skipWatchersOf) bus.skipWatchersOf = options.skipWatchersOf;
  if (options?.onlyWatchersOf) bus.onlyWatchersOf = options.onlyWatchersOf;
  if (options?.watcherCount !== undefined) bus.watcherCount = options.watcherCount;
  return bus;
}

function without(options: PublishOptions | undefined, excluded: readonly string[]) {
  return excluded.length === 0
    ? options
    : { ...options, skipUserIds: [...(options?.skipUserIds ?? []), ...excluded] };
}

/** One event of a group, and the bus entries it makes once the users it must skip are known. */
interface Part {
  event: object;
  entries(excluded: readonly string[]): BusEntry[];
}

/** Collects a group's parts, each in the shape of the publisher method of the same name. */
function collectParts(appId: string, build: (group: PublishGroup) => void): Part[] {
  const parts: Part[] = [];
  build({
    toChannel(cid, event, options) {
      const topic = topics.channel(appId, cid);
      parts.push({
        event,
        entries: (excluded) => [{ topic, message: busMessage(event, without(options, excluded)) }],
      });
    },
    toUser(userId, event, options) {
      const topic = topics.user(appId, userId);
      parts.push({
        event,
        entries: (excluded) =>
          excluded.includes(userId) ? [] : [{ topic, message: busMessage(event, options) }],
      });
    },
    toUsers(userIds, event, options) {
      const recipients = [...userIds];
      if (recipients.length === 0) return;
      parts.push({
        event,
        entries: (excluded) => {
          const message = busMessage(event, options);
          // A set: both lists can be a big channel's members (a mention of @channel, a campaign).
          const skip = new Set(excluded);
          return recipients
            .filter((userId) => !skip.has(userId))
            .map((userId) => ({ topic: topics.user(appId, userId), message }));
        },
      });
    },
    toEachUser(event, fieldsByUser, options) {
      if (fieldsByUser.size === 0) return;
      parts.push({
        event,
        entries: (excluded) => {
          const shared = busMessage(event, options);
          const open = shared.frame.slice(0, -1);
          const separator = open === '{' ? '' : ',';
          const entries: BusEntry[] = [];
          const skip = new Set(excluded);
          for (const [userId, fields] of fieldsByUser) {
            if (skip.has(userId)) continue;
            const own = JSON.stringify(fields);
            const frame = own === '{}' ? shared.frame : `${open}${separator}${own.slice(1)}`;
            entries.push({ topic: topics.user(appId, userId), message: { ...shared, frame } });
          }
          return entries;
        },
      });
    },
  });
  return parts;
}

export function createEventPublisher(
  deps: Pick<ChatDeps, 'pubsub' | 'log'>,
  audienceFilters: readonly EventAudienceFilter[] = [],
): EventPublisher {
  // One topic or many: between nodes, many go as one bus message instead of one per topic.
  const publishEach = (entries: BusEntry[]) => {
    if (entries.length === 0) return;
    deps.pubsub
      .publishEach(entries)
      .catch((error: unknown) =>
        deps.log.warn({ err: error, topics: entries.length }, 'publish failed'),
      );
  };
  const audience = createAudience(deps, audienceFilters);
  const together = (appId: string, build: (group: PublishGroup) => void) => {
    const parts = collectParts(appId, build);
    if (parts.length === 0) return;
    audience(
      appId,
      parts.map((part) => part.event),
      (excluded) => publishEach(parts.flatMap((part, i) => part.entries(excluded[i] ?? NOBODY))),
    );
  };
  return {
    toChannel: (appId, cid, event, options) =>
      together(appId, (group) => group.toChannel(cid, event, options)),
    toUser: (appId, userId, event, options) =>
      together(appId, (group) => group.toUser(userId, event, options)),
    toUsers: (appId, userIds, event, options) =>
      together(appId, (group) => group.toUsers(userIds, event, options)),
    toEachUser: (appId, event, fieldsByUser, options) =>
      together(appId, (group) => group.toEachUser(event, fieldsByUser, options)),
    together,
    toPresenceFollowers: (appId, userId, event) =>
      publishEach([{ topic: topics.presence(appId, userId), message: busMessage(event) }]),
  };
}
