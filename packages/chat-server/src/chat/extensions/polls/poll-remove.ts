import type { Actor } from '../../core/access/access.ts';
import { eventMessageRef, toWatchersWhoSee } from '../../core/access/visibility.ts';
import { channelActivityEvent, channelKeysOf } from '../../core/wire/events.ts';
import type { PollRow } from './repo.ts';
import type { PollsContext } from './service.ts';

/** The carrying message stays; it simply no longer embeds a poll. Watchers learn it from message.updated. */
async function announceCarrierUpdated(
  { deps, messages, events }: PollsContext,
  actor: Actor,
  poll: PollRow,
): Promise<void> {
  if (!poll.message_id || !poll.cid) return;
  const message = await messages.eventMessage(actor.appId, poll.message_id).catch(() => null);
  if (!message) return;
  const event = channelActivityEvent('message.updated', channelKeysOf(poll.cid), deps.clock.now(), {
    message,
    user: message.user,
  });
  const channel = { cid: poll.cid };
  const ref = await eventMessageRef(deps.db, actor.appId, message.id);
  if (ref) await toWatchersWhoSee(deps.db, events, actor.appId, channel, ref, event);
}

export async function removePoll(
  context: PollsContext,
  actor: Actor,
  pollId: string,
): Promise<Record<string, never>> {
  const { deps, core } = context;
  const poll = await core.owned(actor, pollId);
  await deps.writes.run((trx) => core.repo.remove(trx, actor.appId, pollId));
  await announceCarrierUpdated(context, actor, poll);
  return {};
}
