import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import type { EventPublisher } from '../events/publisher.ts';
import { permissionsFor, type Actor } from './access.ts';
import {
  BUILTIN_CHANNEL_TYPES,
  type ChannelTypeLookup,
  type Permission,
} from '../channel-types.ts';
import type { ChannelRow, MemberRow } from '../channels/repo.ts';
import type { MessageRow, MessagesRepo } from '../messages/repo.ts';

/*
 * Hidden history, as ONE rule for every path that reads or references messages: `viewerWindow(viewer, channel)`.
 * A viewer may read a channel when they hold read-channel there, and a message created at or before their bound does
 * not exist for them. The bound is the later of the channel's `truncated_at` and the viewer's own
 * `hide_messages_before` (hide_history on add, clear_history on hide). Deleted messages stay in the window as
 * tombstones (`type: deleted`); the paths that leave them out (search, pins, reminders) do so in their own query.
 *
 * The rule has four forms, all derived from the same bound: `viewerWindow` for one channel whose rows are loaded,
 * `viewerWindows` for many channels at once, `visibleToViewer` inside SQL where a query pages over messages (or
 * `historyBoundSql`, the bound itself as a column, where a query joins each channel once), and
 * `hiddenAudience` / `toWatchersWhoSee` for live events about an existing message. `inWindow` is the test of one
 * message against a window.
 *
 * Per-viewer hiding: messages hidden from one viewer for reasons other than history belong in `hiddenFromViewer`
 * below, which `inWindow`, `visibleToViewer`, `shownToViewer` and the event audiences apply. A shadow-banned author's
 * messages (stored with `shadowed = 1`, core/bans) and pending messages (`pending = 1` until the server commits them,
 * chat/extensions/pending-messages) exist for their author only. A message sent with `restricted_visibility`
 * (Stream's private messaging, migration 0027) exists for its author and the users it lists only.
 */

/** What one viewer may see of one channel's history. */
export interface HistoryWindow {
  /** Who is looking; null for a server call that names nobody (only truncation hides). */
  viewerId: string | null;
  /** Messages created at or before this instant do not exist for the viewer; null when nothing is hidden. */
  hiddenThrough: string | null;
}

/** The one answer every read path asks for: may the viewer read the channel, and from which message on. */
export interface ViewerWindow extends HistoryWindow {
  readable: boolean;
}

/** Who asks, as channels/service.ts `access` describes them in one channel. */
export interface Viewer {
  userId: string | null;
  permissions: ReadonlySet<Permission>;
  /** The viewer's membership, if any: its `hide_messages_before` comes from hide_history and clear_history. */
  membership: Pick<MemberRow, 'hide_messages_before'> | null | undefined;
}

/** The later of the channel's truncation and the member's own bound (null: nothing is hidden). */
export function historyBound(
  channel: Pick<ChannelRow, 'truncated_at'>,
  membership: Pick<MemberRow, 'hide_messages_before'> | null | undefined,
): string | null {
  const bounds = [channel.truncated_at, membership?.hide_messages_before].filter(
    (v): v is string => !!v,
  );
  if (bounds.length === 0) return null;
  return bounds.sort().at(-1)!;
}

/**
 * `historyBound` in SQL, for a query that reads a channel row `channel` with the viewer's membership `member` LEFT
 * JOINed (search materializes it once per channel instead of `visibleToViewer`'s probes per message). '' stands for
 * no bound, as every ISO timestamp sorts after it: a message is in the window when its `created_at` is greater.
 */
export function historyBoundSql(channel: string, member: string): RawBuilder<string> {
  const truncated = sql`coalesce(${sql.ref(`${channel}.truncated_at`)}, '')`;
  const hidden = sql`coalesce(${sql.ref(`${member}.hide_messages_before`)}, '')`;
  return sql<string>`(case when ${truncated} > ${hidden} then ${truncated} else ${hidden} end)`;
}

/** THE rule: whether `viewer` may read `channel` and the bound of the history they may see in it. */
export function viewerWindow(
  viewer: Viewer,
  channel: Pick<ChannelRow, 'truncated_at'>,
): ViewerWindow {
  return {
    readable: viewer.permissions.has('read-channel'),
    viewerId: viewer.userId,
    hiddenThrough: historyBound(channel, viewer.membership),
  };
}

/** The rule for a caller in a channel they reached: their access carries their permissions and membership. */
export function actorWindow(
  actor: Pick<Actor, 'userId'>,
  access: Omit<Viewer, 'userId'> & { channel: Pick<ChannelRow, 'truncated_at'> },
): ViewerWindow {
  return viewerWindow(
    { userId: actor.userId, permissions: access.permissions, membership: access.membership },
    access.channel,
  );
}

/**
 * The history windows of `viewerId` in each of `cids` at once (readability is the caller's: these paths have already
 * selected readable channels, or show the viewer's own objects).
 */
export async function viewerWindows(
  messages: Pick<MessagesRepo, 'historyBounds'>,
  appId: string,
  cids: readonly string[],
  viewerId: string | null,
): Promise<(cid: string) => HistoryWindow> {
  const bounds = cids.length > 0 ? await messages.historyBounds(appId, cids, viewerId) : new Map();
  return (cid) => ({ viewerId, hiddenThrough: bounds.get(cid) ?? null });
}

/** Whether `message` is at or before `bound` (null: nothing is hidden). */
export function isHidden(
  message: Pick<MessageRow, 'created_at'>,
  bound: string | null | undefined,
) {
  return !!bound && message.created_at <= bound;
}

/**
 * A reason a message is hidden from one viewer beyond history. `row` tests a loaded message, `sql` is the same test
 * on the message row aliased `alias` (null: hides nothing).
 */
export interface HiddenFromViewer {
  row(message: AuthorOnlyRef, viewerId: string | null): boolean;
  sql(
    alias: string | null,
    viewer: string | RawBuilder<unknown> | null,
  ): RawBuilder<boolean> | null;
}

/**
 * What the per-viewer rule reads of a message: its author, the flags that keep it the author's alone, and the users
 * it is restricted to.
 */
export type AuthorOnlyRef = Pick<
  MessageRow,
  'user_id' | 'shadowed' | 'pending' | 'restricted_visibility'
>;

/** Whether only its author may see `message` (shadowed, or pending until committed). */
export function authorOnly(message: Pick<MessageRow, 'shadowed' | 'pending'>): boolean {
  return message.shadowed === 1 || message.pending === 1;
}

/** The users a restricted message lists (its author aside), or null for a message meant for everyone. */
export function restrictedTo(message: Pick<MessageRow, 'restricted_visibility'>): string[] | null {
  if (!message.restricted_visibility) return null;
  const list = JSON.parse(message.restricted_visibility) as unknown;
  return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
}

/**
 * Everyone a message exists for when that is not every reader of its channel: its author alone (shadowed, pending),
 * or its author and the users it is restricted to. Null for a message meant for everyone.
 */
export function privateAudience(message: AuthorOnlyRef): string[] | null {
  if (authorOnly(message)) return [message.user_id];
  const listed = restrictedTo(message);
  return listed ? [...new Set([message.user_id, ...listed])] : null;
}

/**
 * A shadowed or pending message is its author's alone; a restricted one its author's and its listed users'. A viewer
 * naming nobody (anonymous, or a server call without a user) is nobody's author and is listed nowhere, so it never
 * sees one.
 */
const hiddenFromViewer: HiddenFromViewer = {
  row: (message, viewerId) => {
    const audience = privateAudience(message);
    return audience !== null && (viewerId === null || !audience.includes(viewerId));
  },
  sql: (alias, viewer) => {
    // Unaliased, the row is the enclosing query's `messages`: named, so the lookup below cannot mistake its columns.
    const column = (name: string) => sql.ref(`${alias ?? 'messages'}.${name}`);
    const flagged = sql<boolean>`(${column('shadowed')} = 1 or ${column('pending')} = 1)`;
    const restricted = sql<boolean>`${column('restricted_visibility')} is not null`;
    if (viewer === null) return sql<boolean>`(${flagged} or ${restricted})`;
    const notListed = sql<boolean>`not exists (select 1 from message_visibility mv where mv.app_id = ${column('app_id')} and mv.message_id = ${column('id')} and mv.user_id = ${viewer})`;
    return sql<boolean>`(${column('user_id')} <> ${viewer} and (${flagged} or (${restricted} and ${notListed})))`;
  },
};

/**
 * SQL for message queries that apply the history bound themselves (pages, pins): the per-viewer part of the rule
 * on the message row aliased `alias` (null: unaliased). `undefined` as viewer is an internal read that hides nothing.
 */
export function shownToViewer(
  alias: string | null,
  viewer: string | null | undefined,
): RawBuilder<boolean> {
  if (viewer === undefined) return sql<boolean>`1 = 1`;
  const hidden = hiddenFromViewer.sql(alias, viewer);
  return hidden ? sql<boolean>`not ${hidden}` : sql<boolean>`1 = 1`;
}

/** Whether `message` exists for the viewer of `window`. */
export function inWindow(
  window: HistoryWindow,
  message: AuthorOnlyRef & Pick<MessageRow, 'created_at'>,
): boolean {
  return (
    !isHidden(message, window.hiddenThrough) && !hiddenFromViewer.row(message, window.viewerId)
  );
}

/**
 * SQL: the message row aliased `alias` is visible to `viewer` (a user id, or a SQL expression naming one); with
 * no viewer only truncation applies. Correlated lookups by primary key, so it costs two index probes per row.
 */
export function visibleToViewer(
  alias: string,
  viewer: string | RawBuilder<unknown> | null,
): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const notTruncated = sql<boolean>`not exists (select 1 from channels hc where hc.app_id = ${column('app_id')} and hc.cid = ${column('cid')} and hc.truncated_at is not null and ${column('created_at')} <= hc.truncated_at)`;
  if (viewer === null) return sql<boolean>`(${notTruncated} and ${shownToViewer(alias, null)})`;
  const notHidden = sql<boolean>`not exists (select 1 from members hm where hm.app_id = ${column('app_id')} and hm.cid = ${column('cid')} and hm.user_id = ${viewer} and hm.hide_messages_before is not null and ${column('created_at')} <= hm.hide_messages_before)`;
  const perViewer = hiddenFromViewer.sql(alias, viewer);
  return perViewer
    ? sql<boolean>`(${notTruncated} and ${notHidden} and not (${perViewer}))`
    : sql<boolean>`(${notTruncated} and ${notHidden})`;
}

/**
 * The types of the actor's app that anyone in the actor's role may read without being a member. Without the app's
 * live types (callers not yet passing them) the built-in definitions answer.
 */
export function openTypeNames(actor: Actor, types?: ChannelTypeLookup): string[] {
  const all = types ? types.list(actor.appId) : Object.values(BUILTIN_CHANNEL_TYPES);
  return all
    .filter((type) => permissionsFor(type, actor, null).has('read-channel'))
    .map((type) => type.name);
}

/**
 * SQL: the channel `cid` (a SQL expression, in app `appId`) is one the actor may read: not deleted, and either of a
 * type anyone in the actor's role may read or one the actor is a member of (channel-types.ts grants; a member banned
 * from the channel still reads it, access.ts), the same test as channels/query.ts `compileChannelFilter`.
 */
export function readableChannel(
  actor: Actor,
  appId: RawBuilder<unknown>,
  cid: RawBuilder<unknown>,
  types?: ChannelTypeLookup,
): RawBuilder<boolean> {
  if (actor.isServer) return sql<boolean>`1 = 1`;
  const publicTypes = openTypeNames(actor, types);
  const member = actor.userId
    ? sql<boolean>`exists (select 1 from members rm where rm.app_id = rc.app_id and rm.cid = rc.cid and rm.user_id = ${actor.userId})`
    : sql<boolean>`1 = 0`;
  const open =
    publicTypes.length > 0 ? sql<boolean>`rc.type in (${sql.join(publicTypes)})` : sql`1 = 0`;
  return sql<boolean>`exists (select 1 from channels rc where rc.app_id = ${appId} and rc.cid = ${cid} and rc.deleted_at is null and (${open} or ${member}))`;
}

/**
 * The actor whose view an object owned by `userId` (a reminder, a draft) is shown in: the caller when it is that
 * user, else that user with their own role, so a server-side call naming them (or a timer, with no caller) gets
 * what they would.
 */
export async function ownerViewer(
  owner: { appId: string; userId: string; caller?: Actor },
  roleOf: (appId: string, userId: string) => Promise<string>,
): Promise<Actor> {
  const { appId, userId, caller } = owner;
  if (caller && !caller.isServer && caller.userId === userId) return caller;
  return { appId, userId, role: await roleOf(appId, userId), isServer: false, connectionId: null };
}

/** Which of `cids` the actor may read (`readableChannel`), for objects loaded outside a channel's access check. */
export async function readableCids(
  db: Db,
  actor: Actor,
  cids: Iterable<string>,
  types?: ChannelTypeLookup,
): Promise<Set<string>> {
  const wanted = [...new Set(cids)];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .selectFrom('channels')
    .select('cid')
    .where('app_id', '=', actor.appId)
    .where('cid', 'in', wanted)
    .where(readableChannel(actor, sql.ref('channels.app_id'), sql.ref('channels.cid'), types))
    .execute();
  return new Set(rows.map((r) => r.cid));
}

/**
 * The message `id` that a write by `writerId` refers to (a quote, a parent): it must exist in `cid`, be visible to
 * the writer (under `bound`, and not a shadow-banned author's message unless theirs) and, unless `allowDeleted`, not
 * be deleted. Anything else is refused alike, so a refusal tells nothing about messages the writer cannot see.
 */
export async function referencedMessage(
  repo: MessagesRepo,
  appId: string,
  id: string,
  target: {
    cid: string;
    bound: string | null;
    writerId: string | null;
    what: string;
    allowDeleted?: boolean;
  },
): Promise<MessageRow> {
  const row = await repo.get(appId, id);
  if (
    !row ||
    row.cid !== target.cid ||
    !inWindow({ viewerId: target.writerId, hiddenThrough: target.bound }, row) ||
    (!target.allowDeleted && row.deleted_at)
  )
    throw chatError.input(`${target.what} ${id} does not exist in this channel`);
  return row;
}

/** What event audiences read of a message: its date for history, its author and flag for per-viewer hiding. */
export type EventMessageRef = AuthorOnlyRef & Pick<MessageRow, 'created_at'>;

/**
 * What the audience of an event about message `id` depends on (its date, author and author-only flags), for code
 * that holds only the id or the wire message: an event built from just a date would reach every watcher of a
 * shadowed or pending message. Undefined when the message is gone.
 */
export async function eventMessageRef(
  db: Db,
  appId: string,
  id: string,
): Promise<EventMessageRef | undefined> {
  return db
    .selectFrom('messages')
    .select(['created_at', 'user_id', 'shadowed', 'pending', 'restricted_visibility'])
    .where('app_id', '=', appId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * An event about a message that exists for `audience` alone: to each of them watching the channel, except those the
 * channel's history or their own bound hides it from.
 */
async function toAudience(
  db: Db,
  events: EventPublisher,
  appId: string,
  channel: { cid: string; truncated_at?: string | null },
  message: EventMessageRef,
  audience: readonly string[],
  event: object,
  skipUserIds: readonly string[],
): Promise<void> {
  // Asked by date: the channel's truncation and the members' own bounds, not the audience rule itself.
  const hidden = await hiddenAudience(db, appId, channel, message.created_at);
  if (hidden.everyone) return;
  for (const userId of audience)
    if (!skipUserIds.includes(userId) && !hidden.userIds.includes(userId))
      events.toUser(appId, userId, event, { onlyWatchersOf: channel.cid });
}

/** Who must not receive live events about a message: nobody, some members, or every watcher. */
export type HiddenAudience = { everyone: true } | { everyone: false; userIds: string[] };

/**
 * The audience a message created at `createdAt` is hidden from: every watcher when the channel was truncated after
 * it, else the members whose own bound hides it (skipped when the event goes to the channel). Per-viewer hiding
 * (the seat at the top of this file) will add the users it hides the message from to `userIds`.
 */
export async function hiddenAudience(
  db: Db,
  appId: string,
  channel: { cid: string; truncated_at?: string | null },
  message: string | EventMessageRef,
): Promise<HiddenAudience> {
  // A shadowed, pending or restricted message is hidden from the channel; toWatchersWhoSee tells its audience alone.
  if (typeof message !== 'string' && hiddenFromViewer.row(message, null)) return { everyone: true };
  const createdAt = typeof message === 'string' ? message : message.created_at;
  const truncatedAt =
    channel.truncated_at !== undefined
      ? channel.truncated_at
      : ((
          await db
            .selectFrom('channels')
            .select('truncated_at')
            .where('app_id', '=', appId)
            .where('cid', '=', channel.cid)
            .executeTakeFirst()
        )?.truncated_at ?? null);
  if (isHidden({ created_at: createdAt }, truncatedAt)) return { everyone: true };
  const members = await db
    .selectFrom('members')
    .select('user_id')
    .where('app_id', '=', appId)
    .where('cid', '=', channel.cid)
    .where('hide_messages_before', '>=', createdAt)
    .execute();
  return { everyone: false, userIds: members.map((m) => m.user_id) };
}

/**
 * Sends an event about an existing message (its row, or only its `created_at`) to the channel's watchers, except
 * those the message is hidden from (and `skipUserIds`). A shadowed or pending message's events reach its author's
 * watching sockets only, a restricted message's those of its author and listed users.
 */
export async function toWatchersWhoSee(
  db: Db,
  events: EventPublisher,
  appId: string,
  channel: { cid: string; truncated_at?: string | null },
  message: string | EventMessageRef,
  event: object,
  skipUserIds: string[] = [],
): Promise<void> {
  const audience = typeof message === 'string' ? null : privateAudience(message);
  if (audience && typeof message !== 'string') {
    await toAudience(db, events, appId, channel, message, audience, event, skipUserIds);
    return;
  }
  const hidden = await hiddenAudience(db, appId, channel, message);
  if (hidden.everyone) return;
  events.toChannel(appId, channel.cid, event, { skipUserIds: [...skipUserIds, ...hidden.userIds] });
}
