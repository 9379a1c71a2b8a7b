import { sql, type Kysely } from 'kysely';
import { reusableQuery } from '../../../db/reusable-query.ts';
import type { Database } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import type {
  BeforeChannelWrite,
  ChannelFields,
  ChannelHiddenCondition,
  EventAudienceFilter,
  UnreadExclusion,
} from '../../core/extension-points.ts';
import type { ModerationTables } from './repo.ts';

/*
 * What a block changes, as Stream documents it for one-to-one conversations. A conversation is one-to-one when the
 * channel has exactly two members, the blocker and the blocked user, whatever its id: a distinct channel
 * (`!members-…`, derived from the members) and a channel the app named itself (`dm-a-b`) are treated alike. A group
 * that happens to shrink to those two members becomes one-to-one too; group channels are otherwise unaffected.
 */

/** The two-member channels of `cids` where `viewerId` is a member and blocked the other member. */
export async function blockedConversations(
  db: Kysely<Database>,
  appId: string,
  viewerId: string,
  cids: readonly string[],
): Promise<Set<string>> {
  if (cids.length === 0) return new Set();
  if (cids.length === 1) {
    const rows = await blockedInOneChannel.execute(db, appId, viewerId, cids[0]!);
    return new Set(rows.map((row) => row.cid));
  }
  const rows = await blockedQuery(db, appId, viewerId)
    .where('c.cid', 'in', [...cids])
    .execute();
  return new Set(rows.map((row) => row.cid));
}

/** `blockedConversations` without its channel condition. */
function blockedQuery(db: Kysely<Database>, appId: string, viewerId: string) {
  return db
    .withTables<ModerationTables>()
    .selectFrom('channels as c')
    .innerJoin('members as mine', (join) =>
      join.onRef('mine.app_id', '=', 'c.app_id').onRef('mine.cid', '=', 'c.cid'),
    )
    .innerJoin('members as other', (join) =>
      join.onRef('other.app_id', '=', 'c.app_id').onRef('other.cid', '=', 'c.cid'),
    )
    .innerJoin('user_blocks as b', (join) =>
      join
        .onRef('b.app_id', '=', 'c.app_id')
        .onRef('b.user_id', '=', 'mine.user_id')
        .onRef('b.blocked_user_id', '=', 'other.user_id'),
    )
    .select('c.cid')
    .where('c.app_id', '=', appId)
    .where('c.member_count', '=', 2)
    .where('mine.user_id', '=', viewerId)
    .where('other.user_id', '<>', viewerId);
}

// Every watch of one channel asks: built and compiled once (db/reusable-query.ts).
const blockedInOneChannel = reusableQuery<[string, string, string], { cid: string }>(
  3,
  (executor, appId, viewerId, cid) =>
    blockedQuery(executor, appId, viewerId).where('c.cid', '=', cid),
);

/** Members of the two-member channel `cid`, other than `userId`, who blocked `userId`. */
export async function blockersInConversation(
  db: Kysely<Database>,
  appId: string,
  cid: string,
  userId: string,
): Promise<string[]> {
  const rows = await db
    .withTables<ModerationTables>()
    .selectFrom('channels as c')
    .innerJoin('members as m', (join) =>
      join.onRef('m.app_id', '=', 'c.app_id').onRef('m.cid', '=', 'c.cid'),
    )
    .innerJoin('user_blocks as b', (join) =>
      join.onRef('b.app_id', '=', 'm.app_id').onRef('b.user_id', '=', 'm.user_id'),
    )
    .select('m.user_id')
    .where('c.app_id', '=', appId)
    .where('c.cid', '=', cid)
    .where('c.member_count', '=', 2)
    .where('m.user_id', '<>', userId)
    .where('b.blocked_user_id', '=', userId)
    .execute();
  return rows.map((row) => row.user_id);
}

/** The viewer's one-to-one conversations with someone they blocked are hidden from their channel list. */
export function blockedConversationHidden(): ChannelHiddenCondition {
  return (viewerId) =>
    sql<boolean>`(c.member_count = 2 and m.user_id is not null and exists (select 1 from members bm inner join user_blocks b on b.app_id = bm.app_id and b.user_id = ${viewerId} and b.blocked_user_id = bm.user_id where bm.app_id = c.app_id and bm.cid = c.cid and bm.user_id <> ${viewerId}))`;
}

/**
 * What a blocked user wrote in the blocker's one-to-one conversation is not unread for the blocker: the
 * conversation is hidden from them, so it must not raise their badge either (messages from before the block, and
 * the product backend's server-side sends, which a block does not refuse).
 */
export function blockedAuthorNotUnread(): UnreadExclusion {
  return () =>
    sql<boolean>`(exists (select 1 from user_blocks ub where ub.app_id = msg.app_id and ub.user_id = r.user_id and ub.blocked_user_id = msg.user_id) and exists (select 1 from channels uc where uc.app_id = msg.app_id and uc.cid = msg.cid and uc.member_count = 2))`;
}

/** `channel.blocked` (and `hidden`) on the blocker's view of such a conversation, as Stream returns it. */
export function blockedChannelFields(db: Kysely<Database>): ChannelFields {
  return async (actor, cids, known) => {
    const result = new Map<string, Record<string, unknown>>();
    if (!actor.userId) return result;
    // Only a two-member conversation the viewer belongs to can be one they blocked: a watch of anything else asks
    // nothing.
    const candidates = cids.filter(
      (cid) => known.memberships.has(cid) && known.channels.get(cid)?.member_count === 2,
    );
    for (const cid of await blockedConversations(db, actor.appId, actor.userId, candidates))
      result.set(cid, { blocked: true, hidden: true });
    return result;
  };
}

/** The blocker receives none of the blocked user's events in their one-to-one conversations. */
export function blockedEventAudience(db: Kysely<Database>): EventAudienceFilter {
  const none: string[] = [];
  return ({ appId, cid, userId, memberCount }) =>
    memberCount !== undefined && memberCount !== 2
      ? none
      : blockersInConversation(db, appId, cid, userId);
}

/**
 * Edits and reactions are refused like sends: whoever a user blocked can no longer write to them in a one-to-one
 * conversation. Stream documents the refusal for messages; reactions are refused as well so that nothing the
 * blocked user does there reaches the blocker later. Server-side calls are never refused.
 */
export function refuseBlockedWrites(db: Kysely<Database>): BeforeChannelWrite {
  return async ({ actor, access, userId }) => {
    if (actor.isServer || access.channel.member_count !== 2) return;
    const blockers = await blockersInConversation(db, actor.appId, access.channel.cid, userId);
    if (blockers.length > 0)
      throw chatError.notAllowed('you cannot write to a user who blocked you');
  };
}

/** The two-member channels whose members are exactly `userId` and `otherId`, with their ids for events. */
export async function sharedConversations(
  db: Kysely<Database>,
  appId: string,
  userId: string,
  otherId: string,
): Promise<{ cid: string; id: string; type: string; member_count: number }[]> {
  return db
    .selectFrom('channels as c')
    .innerJoin('members as a', (join) =>
      join.onRef('a.app_id', '=', 'c.app_id').onRef('a.cid', '=', 'c.cid'),
    )
    .innerJoin('members as o', (join) =>
      join.onRef('o.app_id', '=', 'c.app_id').onRef('o.cid', '=', 'c.cid'),
    )
    .select(['c.cid', 'c.id', 'c.type', 'c.member_count'])
    .where('c.app_id', '=', appId)
    .where('c.member_count', '=', 2)
    .where('c.deleted_at', 'is', null)
    .where('a.user_id', '=', userId)
    .where('o.user_id', '=', otherId)
    .limit(1000)
    .execute();
}
