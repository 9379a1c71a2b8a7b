import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { banHolds, permissionsFor, type Actor } from '../../core/access/access.ts';
import { inWindow } from '../../core/access/visibility.ts';
import { channelTypeOf } from '../../core/channel-types/overrides.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { Activity } from '../../core/extension-points.ts';
import type { MessageRow } from '../../core/messages/repo.ts';
import type { NotificationKind } from './repo.ts';

/** One notification to store: who is told, of what, by whom. */
export interface Planned {
  userId: string;
  kind: NotificationKind;
  cid: string | null;
  messageId: string | null;
  parentId: string | null;
  actorId: string | null;
}

/** Users messages mention beyond `mentioned_users`, by message id (`ExtensionPoints.mentionedUsers`' answers). */
export type ExtraMentions = ReadonlyMap<string, readonly string[]>;

type BlockTables = {
  user_blocks: { app_id: string; user_id: string; blocked_user_id: string };
};

/** Who is told of an activity, before the blocks, mutes and visibility filters. */
async function candidates(
  deps: ChatDeps,
  activity: Activity,
  mentions: ExtraMentions,
): Promise<Planned[]> {
  switch (activity.kind) {
    case 'message':
      return messageCandidates(deps.db, activity.appId, activity.message, mentions);
    case 'reaction':
      return [planFor(activity.message, activity.message.user_id, 'reaction', activity.userId)];
    case 'members-added':
      // A server-side add naming nobody is the product's own doing (joining a newcomer to the public sect
      // channels), not someone adding them: nobody to tell them of.
      if (!activity.actorId) return [];
      return activity.userIds.map((userId) => ({
        userId,
        kind: 'added_to_channel',
        cid: activity.cid,
        messageId: null,
        parentId: null,
        actorId: activity.actorId,
      }));
    case 'reminder-due':
      return [planFor(activity.message, activity.userId, 'reminder_due', null)];
  }
}

function planFor(
  message: MessageRow,
  userId: string,
  kind: NotificationKind,
  actorId: string | null,
): Planned {
  return {
    userId,
    kind,
    cid: message.cid,
    messageId: message.id,
    parentId: message.parent_id,
    actorId,
  };
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function parseIds(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * A campaign message tells every member it reached; otherwise mentioned users hear of a mention, and the thread's
 * author and earlier repliers of a reply (one notification each: a mention wins over a reply).
 */
async function messageCandidates(
  db: Kysely<Database>,
  appId: string,
  message: MessageRow,
  mentions: ExtraMentions,
): Promise<Planned[]> {
  if (message.type === 'error' || message.deleted_at) return [];
  if (typeof parseObject(message.custom).campaign_id === 'string') {
    const members = await db
      .selectFrom('members')
      .select('user_id')
      .where('app_id', '=', appId)
      .where('cid', '=', message.cid)
      .execute();
    return members.map((m) => planFor(message, m.user_id, 'campaign', message.user_id));
  }
  const planned = new Map<string, Planned>();
  const mentioned = new Set(parseIds(message.mentioned_users));
  for (const id of mentions.get(message.id) ?? []) mentioned.add(id);
  for (const userId of mentioned)
    planned.set(userId, planFor(message, userId, 'mention', message.user_id));
  if (message.parent_id) {
    for (const userId of await threadPeople(db, appId, message.parent_id))
      if (!planned.has(userId))
        planned.set(userId, planFor(message, userId, 'reply', message.user_id));
  }
  return [...planned.values()];
}

/** The parent's author and everyone who replied in the thread. */
async function threadPeople(db: Kysely<Database>, appId: string, parentId: string) {
  const rows = await db
    .selectFrom('messages')
    .select('user_id')
    .distinct()
    .where('app_id', '=', appId)
    .where((eb) => eb.or([eb('id', '=', parentId), eb('parent_id', '=', parentId)]))
    .where('shadowed', '=', 0)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Runs `read` over `ids` in slices of 500, so a big channel's members never make one oversized IN list. */
async function inSlices<T>(ids: readonly string[], read: (slice: string[]) => Promise<T[]>) {
  const found: T[] = [];
  for (let i = 0; i < ids.length; i += 500) found.push(...(await read(ids.slice(i, i + 500))));
  return found;
}

const pair = (a: string, b: string) => `${a}\u0000${b}`;

/**
 * Which of `planned` are silenced: the recipient blocked or muted the actor, or muted the channel. Three queries for
 * the whole list (per slice of recipients), not three per recipient.
 */
async function silencedOnes(
  deps: ChatDeps,
  appId: string,
  planned: readonly Planned[],
): Promise<(plan: Planned) => boolean> {
  const now = deps.clock.now();
  const userIds = [...new Set(planned.map((p) => p.userId))];
  const actorIds = [...new Set(planned.flatMap((p) => (p.actorId ? [p.actorId] : [])))];
  const cids = [...new Set(planned.flatMap((p) => (p.cid ? [p.cid] : [])))];
  const silencedActors = new Set<string>();
  const mutedChannels = new Set<string>();
  if (actorIds.length > 0) {
    const blocks = await inSlices(userIds, (slice) =>
      deps.db
        .withTables<BlockTables>()
        .selectFrom('user_blocks')
        .select(['user_id', 'blocked_user_id as target_id'])
        .where('app_id', '=', appId)
        .where('user_id', 'in', slice)
        .where('blocked_user_id', 'in', actorIds)
        .execute(),
    );
    const mutes = await inSlices(userIds, (slice) =>
      deps.db
        .selectFrom('user_mutes')
        .select(['user_id', 'target_id'])
        .where('app_id', '=', appId)
        .where('user_id', 'in', slice)
        .where('target_id', 'in', actorIds)
        .where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', now)]))
        .execute(),
    );
    for (const r of [...blocks, ...mutes]) silencedActors.add(pair(r.user_id, r.target_id));
  }
  if (cids.length > 0) {
    const muted = await inSlices(userIds, (slice) =>
      deps.db
        .selectFrom('channel_mutes')
        .select(['user_id', 'cid'])
        .where('app_id', '=', appId)
        .where('user_id', 'in', slice)
        .where('cid', 'in', cids)
        .where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', now)]))
        .execute(),
    );
    for (const r of muted) mutedChannels.add(pair(r.user_id, r.cid));
  }
  return (plan) =>
    (!!plan.actorId && silencedActors.has(pair(plan.userId, plan.actorId))) ||
    (!!plan.cid && mutedChannels.has(pair(plan.userId, plan.cid)));
}

/**
 * Which of `userIds` may read the message where it is: the channel's read grant for them (member or not, bans
 * included), then the one visibility rule (hidden history, shadow-banned authors; core/access/visibility.ts). The
 * channel is read once and the memberships in one query, whatever the number of recipients.
 */
async function readers(
  deps: ChatDeps,
  appId: string,
  userIds: readonly string[],
  message: MessageRow,
): Promise<Set<string>> {
  const may = new Set<string>();
  if (userIds.length === 0) return may;
  const channel = await deps.db
    .selectFrom('channels')
    .select(['app_id', 'type', 'created_by_id', 'deleted_at', 'config_overrides'])
    .where('app_id', '=', appId)
    .where('cid', '=', message.cid)
    .executeTakeFirst();
  const type = channel && channelTypeOf(deps.channelTypes, channel);
  if (!channel || !type || channel.deleted_at) return may;
  const members = await inSlices([...new Set(userIds)], (slice) =>
    deps.db
      .selectFrom('members')
      .select(['user_id', 'channel_role', 'banned', 'ban_expires', 'hide_messages_before'])
      .where('app_id', '=', appId)
      .where('cid', '=', message.cid)
      .where('user_id', 'in', slice)
      .execute(),
  );
  const memberOf = new Map(members.map((m) => [m.user_id, m]));
  for (const userId of userIds) {
    const member = memberOf.get(userId);
    const actor: Actor = { appId, userId, role: 'user', isServer: false, connectionId: null };
    const facts = member
      ? { channelRole: member.channel_role, banned: banHolds(member.banned, member.ban_expires) }
      : channel.created_by_id === userId
        ? { channelRole: 'owner', banned: false }
        : null;
    if (!permissionsFor(type, actor, facts).has('read-channel')) continue;
    const window = { viewerId: userId, hiddenThrough: member?.hide_messages_before ?? null };
    if (inWindow(window, message)) may.add(userId);
  }
  return may;
}

/**
 * The notifications an activity makes: never to the one who acted, never from someone the recipient blocked or
 * muted nor in a channel they muted, and for messages only to those who may read them.
 */
export async function plan(
  deps: ChatDeps,
  activity: Activity,
  mentions: ExtraMentions = new Map(),
): Promise<Planned[]> {
  const others = (await candidates(deps, activity, mentions)).filter(
    (planned) => !(planned.actorId && planned.userId === planned.actorId),
  );
  if (others.length === 0) return [];
  const silenced = await silencedOnes(deps, activity.appId, others);
  const heard = others.filter((planned) => !silenced(planned));
  if (activity.kind !== 'message') return heard;
  const may = await readers(
    deps,
    activity.appId,
    heard.map((planned) => planned.userId),
    activity.message,
  );
  return heard.filter((planned) => may.has(planned.userId));
}
