import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { banHolds, permissionsFor, type Actor } from '../../core/access/access.ts';
import { inWindow } from '../../core/access/visibility.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { Activity, MentionedUsersResolver } from '../../core/extension-points.ts';
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

type BlockTables = {
  user_blocks: { app_id: string; user_id: string; blocked_user_id: string };
};

/** Who is told of an activity, before the blocks, mutes and visibility filters. */
async function candidates(
  deps: ChatDeps,
  activity: Activity,
  mentions: readonly MentionedUsersResolver[],
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
  mentions: readonly MentionedUsersResolver[],
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
  for (const resolve of mentions) for (const id of await resolve(appId, message)) mentioned.add(id);
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

/** Whether `userId` blocked or muted `actorId`, or muted the channel: then they are not told. */
async function silenced(deps: ChatDeps, appId: string, plan: Planned): Promise<boolean> {
  const now = deps.clock.now();
  if (plan.actorId) {
    const blocked = await deps.db
      .withTables<BlockTables>()
      .selectFrom('user_blocks')
      .select('user_id')
      .where('app_id', '=', appId)
      .where('user_id', '=', plan.userId)
      .where('blocked_user_id', '=', plan.actorId)
      .executeTakeFirst();
    if (blocked) return true;
    const muted = await deps.db
      .selectFrom('user_mutes')
      .select('user_id')
      .where('app_id', '=', appId)
      .where('user_id', '=', plan.userId)
      .where('target_id', '=', plan.actorId)
      .where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', now)]))
      .executeTakeFirst();
    if (muted) return true;
  }
  if (!plan.cid) return false;
  const channelMuted = await deps.db
    .selectFrom('channel_mutes')
    .select('user_id')
    .where('app_id', '=', appId)
    .where('user_id', '=', plan.userId)
    .where('cid', '=', plan.cid)
    .where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', now)]))
    .executeTakeFirst();
  return !!channelMuted;
}

/**
 * Whether `userId` may read the message where it is: the channel's read grant for them (member or not, bans
 * included), then the one visibility rule (hidden history, shadow-banned authors; core/access/visibility.ts).
 */
async function mayRead(
  deps: ChatDeps,
  appId: string,
  userId: string,
  message: MessageRow,
): Promise<boolean> {
  const channel = await deps.db
    .selectFrom('channels')
    .select(['type', 'created_by_id', 'deleted_at'])
    .where('app_id', '=', appId)
    .where('cid', '=', message.cid)
    .executeTakeFirst();
  const type = channel && deps.channelTypes.get(appId, channel.type);
  if (!channel || !type || channel.deleted_at) return false;
  const member = await deps.db
    .selectFrom('members')
    .select(['channel_role', 'banned', 'ban_expires', 'hide_messages_before'])
    .where('app_id', '=', appId)
    .where('cid', '=', message.cid)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const actor: Actor = { appId, userId, role: 'user', isServer: false, connectionId: null };
  const facts = member
    ? { channelRole: member.channel_role, banned: banHolds(member.banned, member.ban_expires) }
    : channel.created_by_id === userId
      ? { channelRole: 'owner', banned: false }
      : null;
  if (!permissionsFor(type, actor, facts).has('read-channel')) return false;
  return inWindow(
    { viewerId: userId, hiddenThrough: member?.hide_messages_before ?? null },
    message,
  );
}

/**
 * The notifications an activity makes: never to the one who acted, never from someone the recipient blocked or
 * muted nor in a channel they muted, and for messages only to those who may read them.
 */
export async function plan(
  deps: ChatDeps,
  activity: Activity,
  mentions: readonly MentionedUsersResolver[] = [],
): Promise<Planned[]> {
  const kept: Planned[] = [];
  const message = activity.kind === 'members-added' ? null : activity.message;
  for (const planned of await candidates(deps, activity, mentions)) {
    if (planned.actorId && planned.userId === planned.actorId) continue;
    if (await silenced(deps, activity.appId, planned)) continue;
    if (message && activity.kind === 'message') {
      if (!(await mayRead(deps, activity.appId, planned.userId, message))) continue;
    }
    kept.push(planned);
  }
  return kept;
}
