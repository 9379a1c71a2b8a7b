import { chatError } from '../../../errors.ts';
import { requirePermission } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { BeforeMessageStored } from '../../core/extension-points.ts';
import type { MessagesRepo } from '../../core/messages/repo.ts';
import type { PollsRepo } from './repo.ts';

/**
 * A message may carry a poll its sender created and no other message carries yet; the poll then records the message
 * in the send's transaction.
 */
export function attachPollOnSend(context: {
  deps: ChatDeps;
  polls: PollsRepo;
  messages: MessagesRepo;
}): BeforeMessageStored {
  const { deps, polls, messages } = context;
  return async ({ actor, access, userId, row, custom, system }) => {
    if (custom.poll_id === undefined || custom.poll_id === null || custom.poll_id === '') {
      // No poll, as Stream reads an empty poll_id: nothing of it may stay in the custom data already serialised.
      if ('poll_id' in custom) {
        delete custom.poll_id;
        row.custom = JSON.stringify(custom);
      }
      return undefined;
    }
    if (system) throw chatError.input('a system message cannot carry a poll');
    if (typeof custom.poll_id !== 'string') throw chatError.input('poll_id must be a string');
    const pollId = custom.poll_id;
    if (!access.type.config.polls)
      throw chatError.featureNotSupported('polls are disabled for this channel type');
    requirePermission(access.permissions, 'send-poll', 'sending a poll');
    const poll = await polls.get(deps.db, actor.appId, pollId);
    if (!poll) throw chatError.input(`poll with id ${pollId} does not exist`);
    if (!actor.isServer && poll.created_by_id !== userId)
      throw chatError.notAllowed('only the creator of a poll can send it');
    if (poll.message_id && poll.message_id !== row.id) {
      const carrier = await messages.get(actor.appId, poll.message_id);
      if (carrier) throw chatError.input(`poll ${pollId} is already attached to a message`);
    }
    return async (trx) => {
      await polls.update(trx, actor.appId, pollId, { message_id: row.id, cid: row.cid });
    };
  };
}
