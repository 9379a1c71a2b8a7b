import { sql, type Insertable } from 'kysely';
import type { MembersTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, requireServerSide, type Actor } from '../access/access.ts';
import { assertCustomSize } from '../field-rules.ts';
import { isPlainObject, parseObject, pickCustom, type JsonObject } from '../json.ts';
import type { ChannelUseCaseContext } from './context.ts';
import { assertChannelType, cidOf, distinctId, intOption } from './ids.ts';
import { memberPageConditions } from './member-paging.ts';
import { publishMemberUpdated } from './member-events.ts';
import { MEMBER_RESERVED, readMemberInputs } from './member-rules.ts';
import { compileMemberFilter, compileMemberSort } from './query.ts';
import type { MemberRow } from './repo.ts';
import { toMemberResponse } from './serialize.ts';
import type { ChannelsService } from './service.ts';

export function createMemberUseCases(
  ctx: ChannelUseCaseContext,
): Pick<ChannelsService, 'updateMember' | 'queryMembers'> {
  const { deps, repo, users } = ctx;
  return {
    async updateMember(actor, typeName, id, targetUserId, body) {
      const cid = cidOf(typeName, id);
      const userId = targetUserId ?? actor.userId;
      if (!userId) throw chatError.input('user_id is required');
      const current = await ctx.access(actor, cid);
      // A membership holds its member's own choices (pinned, archived, muted, custom data): only they or the server
      // change it. Roles and bans have their own server-side and moderation endpoints.
      if (userId !== actor.userId && !actor.isServer)
        throw chatError.notAllowed(
          'only the member themselves or the server can update a membership',
        );
      const member = await repo.member(actor.appId, cid, userId);
      if (!member) throw chatError.notFound(`user ${userId} is not a member of channel ${cid}`);
      const patch = memberPatch(actor, member, body, deps.clock.now());
      await deps.writes.run((trx) => repo.updateMember(trx, actor.appId, cid, userId, patch));
      const response = await publishMemberUpdated(ctx, actor.appId, current.channel, userId);
      return { channel_member: response };
    },

    async queryMembers(actor, payload) {
      const { cid, byMembers } = await membersQueryTarget(ctx, actor, payload);
      const current = await ctx.access(actor, cid);
      // Looked up by its members, a conversation the caller may not read must look like one that does not exist:
      // otherwise anyone could learn who talks with whom.
      if (byMembers && !current.permissions.has('read-channel'))
        throw chatError.notFound('channel does not exist');
      requirePermission(current.permissions, 'read-channel', `reading channel ${cid}`);
      const limit = intOption(payload.limit, 100, 300, 'limit');
      const offset = intOption(payload.offset, 0, 10_000, 'offset');
      const filter = payload.filter_conditions ?? {};
      if (!isPlainObject(filter)) throw chatError.input('filter_conditions must be an object');
      const where = [compileMemberFilter(deps.dialect, filter), ...memberPageConditions(payload)];
      const rows = await repo.queryMembers(
        actor.appId,
        cid,
        sql<boolean>`(${sql.join(where, sql` and `)})`,
        compileMemberSort(deps.dialect, payload.sort),
        limit,
        offset,
      );
      const usersById = await users.responses(
        actor.appId,
        rows.map((r) => r.user_id),
      );
      return { members: rows.map((r) => toMemberResponse(r, usersById)) };
    },
  };
}

/** The row change a partial member update (`set` / `unset`) asks for, checked. */
function memberPatch(
  actor: Actor,
  member: MemberRow,
  body: JsonObject,
  now: string,
): Partial<Insertable<MembersTable>> {
  const set = body.set ?? {};
  const unset = body.unset ?? [];
  if (!isPlainObject(set)) throw chatError.input('set must be an object');
  if (!Array.isArray(unset) || !unset.every((k) => typeof k === 'string'))
    throw chatError.input('unset must be a list of keys');
  const banFields = ['banned', 'shadow_banned', 'invited'].filter((key) => key in set);
  if (banFields.length > 0 && !actor.isServer)
    throw chatError.notAllowed(`${banFields.join(', ')} cannot be changed by a member update`);
  const custom = {
    ...parseObject(member.custom),
    ...pickCustom(set, MEMBER_RESERVED, 'member'),
  };
  const patch: Partial<Insertable<MembersTable>> = { updated_at: now };
  if ('pinned' in set) patch.pinned_at = set.pinned === true ? now : null;
  if ('archived' in set) patch.archived_at = set.archived === true ? now : null;
  if (typeof set.notifications_muted === 'boolean')
    patch.notifications_muted = set.notifications_muted ? 1 : 0;
  if (set.channel_role !== undefined) {
    // Stream's words, which its docs' example matches.
    requireServerSide(actor, 'this channel role can only be updated server side');
    if (set.channel_role !== 'channel_member' && set.channel_role !== 'channel_moderator')
      throw chatError.input('unknown channel_role');
    patch.channel_role = set.channel_role;
  }
  for (const key of unset as string[]) {
    if (key === 'pinned') patch.pinned_at = null;
    else if (key === 'archived') patch.archived_at = null;
    else delete custom[key];
  }
  assertCustomSize(custom, 'member');
  patch.custom = JSON.stringify(custom);
  return patch;
}

/** The channel a members query names: by type and id, or as the distinct conversation of a member list. */
async function membersQueryTarget(
  ctx: Pick<ChannelUseCaseContext, 'repo'>,
  actor: Actor,
  payload: JsonObject,
): Promise<{ cid: string; byMembers: boolean }> {
  const typeName = assertChannelType(payload.type);
  if (typeof payload.id === 'string' && payload.id)
    return { cid: cidOf(typeName, payload.id), byMembers: false };
  const members = readMemberInputs(payload.members, 'members').map((m) => m.user_id);
  if (members.length === 0) throw chatError.input('either id or members must be provided');
  const existing = await ctx.repo.byDistinctKey(actor.appId, typeName, distinctId(members).key);
  if (!existing) throw chatError.notFound('channel does not exist');
  return { cid: existing.cid, byMembers: true };
}
