import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import { historyBound, isHidden } from '../../core/access/visibility.ts';
import type { ChannelAccess } from '../../core/channels/service.ts';
import type { PollsCoreContext } from './core.ts';
import type { PollRow } from './repo.ts';

const isPrivileged = (actor: Actor) =>
  actor.isServer || actor.role === 'admin' || actor.role === 'moderator';

/** The user a call acts for: the token's user, or `user_id` on server-side calls. */
export function actingUser(actor: Actor, given: unknown): string {
  if (actor.isServer) {
    const id = typeof given === 'string' && given ? given : actor.userId;
    if (!id) throw chatError.input('user_id is required for server-side calls');
    return id;
  }
  if (!actor.userId) throw chatError.notAllowed('anonymous users cannot use polls');
  return actor.userId;
}

/** The message carrying the poll, if it still exists. */
async function carrierMessage({ deps }: PollsCoreContext, appId: string, poll: PollRow) {
  if (!poll.message_id) return undefined;
  return deps.db
    .selectFrom('messages')
    .select(['cid', 'created_at'])
    .where('app_id', '=', appId)
    .where('id', '=', poll.message_id)
    .executeTakeFirst();
}

/** The poll, readable by the actor (its channel's readers, or only its creator while it is on no message). */
export async function readablePoll(
  context: PollsCoreContext,
  actor: Actor,
  pollId: string,
): Promise<{ poll: PollRow; access?: ChannelAccess }> {
  const { deps, repo, channels } = context;
  const poll = await repo.get(deps.db, actor.appId, pollId);
  if (!poll) throw chatError.notFound(`poll with id ${pollId} does not exist`);
  if (poll.cid) {
    const access = await channels.access(actor, poll.cid);
    requirePermission(access.permissions, 'read-channel', `reading poll ${pollId}`);
    // A poll is part of its message: gone with it for a viewer who can no longer see that message.
    const message = await carrierMessage(context, actor.appId, poll);
    if (
      !message ||
      message.cid !== poll.cid ||
      isHidden(message, historyBound(access.channel, access.membership))
    )
      throw chatError.notFound(`poll with id ${pollId} does not exist`);
    return { poll, access };
  }
  if (!isPrivileged(actor) && poll.created_by_id !== actor.userId)
    throw chatError.notFound(`poll with id ${pollId} does not exist`);
  return { poll };
}

/** The poll, changeable by the actor (its creator, an admin or moderator, or the server). */
export async function ownedPoll(
  { deps, repo }: PollsCoreContext,
  actor: Actor,
  pollId: string,
): Promise<PollRow> {
  const poll = await repo.get(deps.db, actor.appId, pollId);
  if (!poll) throw chatError.notFound(`poll with id ${pollId} does not exist`);
  if (!isPrivileged(actor) && poll.created_by_id !== actor.userId)
    throw chatError.notAllowed(`only the creator of poll ${pollId} can change it`);
  return poll;
}
