import type { Insertable, Transaction } from 'kysely';
import type { Database, MembersTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { createBansRepo, type BanRow } from '../bans/repo.ts';
import type { ChannelUseCaseContext } from './context.ts';
import type { MemberInput } from './member-rules.ts';
import type { MemberRow } from './repo.ts';

export interface AddMembersOptions {
  invited?: boolean;
  /** The new members' history bound: nothing created at or before it exists for them (visibility.ts). */
  hiddenThrough?: string | null;
  changeRoles?: boolean;
}

export async function ensureUsersExist(
  ctx: Pick<ChannelUseCaseContext, 'users'>,
  appId: string,
  ids: string[],
): Promise<void> {
  const found = await ctx.users.repo.getMany(appId, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw chatError.input(
      `The following users are specified in channel.members but don't exist: ${missing.join(', ')}`,
    );
  }
}

/** Adds members inside a transaction; returns the rows that were new. */
export async function addMembersTx(
  ctx: Pick<ChannelUseCaseContext, 'repo' | 'repos'>,
  trx: Transaction<Database>,
  target: { appId: string; cid: string; now: string },
  inputs: MemberInput[],
  options: AddMembersOptions = {},
): Promise<MemberRow[]> {
  const { appId, cid, now } = target;
  const added: MemberRow[] = [];
  const bans = await createBansRepo(trx).inChannel(
    trx,
    appId,
    cid,
    inputs.map((input) => input.user_id),
    now,
  );
  for (const input of inputs) {
    const row = { ...newMemberRow(target, input, options), ...banFlags(bans.get(input.user_id)) };
    // Re-adding someone who is already a member never touches their role, unless the server asks for one.
    const changeRole = options.changeRoles === true && input.channel_role !== undefined;
    if (await ctx.repo.upsertMember(trx, row, changeRole)) {
      await ctx.repos.reads.upsert(trx, {
        app_id: appId,
        cid,
        user_id: input.user_id,
        thread_id: '',
        last_read: now,
        last_read_message_id: null,
      });
      added.push((await ctx.repo.member(appId, cid, input.user_id, trx))!);
    }
  }
  if (inputs.length > 0) await ctx.repo.refreshMemberCount(trx, appId, cid);
  return added;
}

/**
 * A user banned from the channel cannot be added to it; one shadow-banned there joins with the flag set, unaware,
 * so leaving and coming back lifts neither.
 */
function banFlags(ban: BanRow | undefined): Partial<Insertable<MembersTable>> {
  if (!ban) return {};
  if (ban.shadow !== 1)
    throw chatError.notAllowed(`user ${ban.user_id} is banned from channel ${ban.cid}`);
  return { shadow_banned: 1, ban_expires: ban.expires };
}

function newMemberRow(
  target: { appId: string; cid: string; now: string },
  input: MemberInput,
  options: AddMembersOptions,
): Insertable<MembersTable> {
  const { appId, cid, now } = target;
  return {
    app_id: appId,
    cid,
    user_id: input.user_id,
    channel_role: input.channel_role ?? 'channel_member',
    custom: JSON.stringify(input.custom ?? {}),
    invited: options.invited === true ? 1 : 0,
    banned: 0,
    shadow_banned: 0,
    notifications_muted: 0,
    hidden: 0,
    // `hide_history` / `hide_history_before`: a newcomer sees only what is written from then on.
    ...(options.hiddenThrough ? { hide_messages_before: options.hiddenThrough } : {}),
    created_at: now,
    updated_at: now,
  };
}
