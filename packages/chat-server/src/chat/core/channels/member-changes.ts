import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { isoJustBefore, normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { JsonObject } from '../json.ts';
import type { ChannelAccess, ChannelUseCaseContext } from './context.ts';
import {
  publishInviteAnswered,
  publishMemberUpdated,
  publishMembersAdded,
  publishMembersRemoved,
} from './member-events.ts';
import {
  readMemberInputs,
  requireAddRights,
  requireRemoveRights,
  requireRightToGiveRoles,
  requireServerForRoles,
  type MemberInput,
} from './member-rules.ts';
import { addMembersTx, ensureUsersExist } from './member-writes.ts';
import type { ChannelRow, MemberRow } from './repo.ts';

/** The membership changes a channel update carries beside its data. */
export interface MemberChanges {
  adds: MemberInput[];
  removes: string[];
  promote: string[];
  demote: string[];
  assign: MemberInput[];
  invites: MemberInput[];
  acceptInvite: boolean;
  rejectInvite: boolean;
  hideHistory: boolean;
  /** `hide_history_before`: new members see nothing written before this instant. */
  hideHistoryBefore: string | null;
}

/** What a committed update did to memberships, for its events. */
export interface MemberChangesDone {
  added: MemberRow[];
  removed: string[];
  updated: string[];
  /** The actor's answer to their invitation, if the update carried one. */
  answered?: { userId: string; accepted: boolean };
}

export function readMemberChanges(body: JsonObject): MemberChanges {
  const ids = (inputs: MemberInput[]) => inputs.map((m) => m.user_id);
  return {
    adds: readMemberInputs(body.add_members, 'add_members'),
    removes: ids(readMemberInputs(body.remove_members, 'remove_members')),
    promote: ids(readMemberInputs(body.add_moderators, 'add_moderators')),
    demote: ids(readMemberInputs(body.demote_moderators, 'demote_moderators')),
    assign: readMemberInputs(body.assign_roles, 'assign_roles'),
    invites: readMemberInputs(body.invites, 'invites'),
    acceptInvite: body.accept_invite === true,
    rejectInvite: body.reject_invite === true,
    hideHistory: body.hide_history === true,
    hideHistoryBefore: readHideHistoryBefore(body.hide_history_before),
  };
}

function readHideHistoryBefore(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const at = typeof value === 'string' ? normalizeIso(value) : null;
  if (!at) throw chatError.input('hide_history_before must be an RFC 3339 timestamp');
  return at;
}

/**
 * What new members may not see: everything up to now with `hide_history`, everything before the given instant with
 * `hide_history_before` (never later than now: what is written after they join is theirs to read).
 */
function hiddenThroughOf(changes: MemberChanges, now: string): string | null {
  if (changes.hideHistory) return now;
  if (!changes.hideHistoryBefore) return null;
  const before = isoJustBefore(changes.hideHistoryBefore);
  return before < now ? before : now;
}

/** Roles are the server's to give; adding, removing and answering an invite each have their own rule. */
export async function authorizeMemberChanges(
  ctx: Pick<ChannelUseCaseContext, 'repo' | 'users'>,
  actor: Actor,
  current: ChannelAccess,
  changes: MemberChanges,
): Promise<void> {
  const { adds, invites } = changes;
  if (changes.promote.length) requireServerForRoles(actor, 'adding moderators');
  if (changes.demote.length) requireServerForRoles(actor, 'demoting moderators');
  if (changes.assign.length) requireServerForRoles(actor, 'assigning channel roles');
  requireRightToGiveRoles(
    actor,
    { createdById: current.channel.created_by_id, membership: current.membership },
    [...adds, ...invites],
  );
  if (adds.length || invites.length)
    requireAddRights(actor, current, [
      ...adds.map((m) => m.user_id),
      ...invites.map((m) => m.user_id),
    ]);
  await requireRemoveRights(ctx, actor, current, changes.removes);
  if (answersInvite(changes) && current.membership?.invited !== 1)
    throw chatError.input('there is no pending invite to accept or reject');
  await ensureUsersExist(
    ctx,
    actor.appId,
    [...adds, ...invites].map((m) => m.user_id),
  );
}

function answersInvite(changes: MemberChanges): boolean {
  return changes.acceptInvite || changes.rejectInvite;
}

/** Applies the membership changes inside the update's transaction. */
export async function applyMemberChanges(
  ctx: Pick<ChannelUseCaseContext, 'repo' | 'repos'>,
  trx: Transaction<Database>,
  actor: Actor,
  target: { cid: string; now: string },
  changes: MemberChanges,
): Promise<MemberChangesDone> {
  const { repo } = ctx;
  const { cid, now } = target;
  const where = { appId: actor.appId, cid, now };
  const options = { hiddenThrough: hiddenThroughOf(changes, now), changeRoles: actor.isServer };
  const added = await addMembersTx(ctx, trx, where, changes.adds, options);
  added.push(
    ...(await addMembersTx(ctx, trx, where, changes.invites, { ...options, invited: true })),
  );
  const removed: string[] = [];
  for (const userId of changes.removes)
    if (await repo.removeMember(trx, actor.appId, cid, userId)) removed.push(userId);
  if (changes.removes.length) await repo.refreshMemberCount(trx, actor.appId, cid);
  const updated = await applyRoleChanges(ctx, trx, where, changes);
  let answered: MemberChangesDone['answered'];
  if (answersInvite(changes) && actor.userId) {
    answered = { userId: actor.userId, accepted: changes.acceptInvite };
    await repo.updateMember(
      trx,
      actor.appId,
      cid,
      actor.userId,
      changes.acceptInvite
        ? { invite_accepted_at: now, invited: 0, updated_at: now }
        : { invite_rejected_at: now, updated_at: now },
    );
    updated.push(actor.userId);
  }
  return { added, removed, updated, ...(answered ? { answered } : {}) };
}

/** Promotions, demotions and assigned roles of current members; returns whose role was set. */
async function applyRoleChanges(
  ctx: Pick<ChannelUseCaseContext, 'repo'>,
  trx: Transaction<Database>,
  target: { appId: string; cid: string; now: string },
  changes: MemberChanges,
): Promise<string[]> {
  const { appId, cid, now } = target;
  const roleChanges: [string, string][] = [
    ...changes.promote.map((u): [string, string] => [u, 'channel_moderator']),
    ...changes.demote.map((u): [string, string] => [u, 'channel_member']),
    ...changes.assign.map((m): [string, string] => [m.user_id, m.channel_role ?? 'channel_member']),
  ];
  const updated: string[] = [];
  for (const [userId, role] of roleChanges) {
    if (!(await ctx.repo.member(appId, cid, userId, trx))) continue;
    await ctx.repo.updateMember(trx, appId, cid, userId, { channel_role: role, updated_at: now });
    updated.push(userId);
  }
  return updated;
}

/** The member events of a committed update, after its `channel.updated`. */
export async function publishMemberChanges(
  ctx: Parameters<typeof publishMembersAdded>[0],
  actor: Actor,
  fresh: ChannelRow,
  done: MemberChangesDone,
): Promise<void> {
  await publishMembersAdded(ctx, actor, fresh.cid, done.added);
  await publishMembersRemoved(ctx, actor, fresh, done.removed);
  for (const userId of done.updated) await publishMemberUpdated(ctx, actor.appId, fresh, userId);
  if (done.answered) await publishInviteAnswered(ctx, actor.appId, fresh, done.answered);
}
