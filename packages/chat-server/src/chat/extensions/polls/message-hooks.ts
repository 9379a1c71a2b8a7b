import { chatError } from '../../../errors.ts';
import { requirePermission } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import type { PollsCore } from './core.ts';

export interface PollMessageHooksContext {
  deps: ChatDeps;
  core: PollsCore;
  messages: MessagesService;
  assembler: MessageAssembler;
}

/** How polls ride on messages: a send may attach one, and every assembled message embeds the poll it carries. */
export function installPollMessageHooks({
  deps,
  core,
  messages,
  assembler,
}: PollMessageHooksContext): void {
  const { repo } = core;

  // Every assembled message that carries a poll embeds it, with the viewer's own votes: only the poll attached to
  // that very message (a send not yet committed has not recorded the attachment the send hook checked).
  assembler.addEnricher(async (appId, rows, viewerId, { fresh }) => {
    const pollIds = new Map<string, string>();
    for (const row of rows) {
      if (!row.custom.includes('"poll_id"')) continue;
      const pollId = JSON.parse(row.custom).poll_id as unknown;
      if (typeof pollId === 'string') pollIds.set(row.id, pollId);
    }
    const result = new Map<string, Record<string, unknown>>();
    if (pollIds.size === 0) return result;
    const polls = await repo.getMany(appId, [...pollIds.values()]);
    const responses = await core.responses(appId, [...polls.values()], viewerId);
    for (const [messageId, pollId] of pollIds) {
      const poll = responses.get(pollId);
      const attachedHere = fresh || polls.get(pollId)?.message_id === messageId;
      if (poll && attachedHere) result.set(messageId, { poll });
    }
    return result;
  });

  // A message may carry a poll its sender created and no other message carries yet.
  messages.addSendHook(async ({ actor, access, userId, row, custom, system }) => {
    if (custom.poll_id === undefined || custom.poll_id === null || custom.poll_id === '') {
      delete custom.poll_id;
      return undefined;
    }
    if (system) throw chatError.input('a system message cannot carry a poll');
    if (typeof custom.poll_id !== 'string') throw chatError.input('poll_id must be a string');
    const pollId = custom.poll_id;
    if (!access.type.config.polls)
      throw chatError.featureNotSupported('polls are disabled for this channel type');
    requirePermission(access.permissions, 'send-poll', 'sending a poll');
    const poll = await repo.get(deps.db, actor.appId, pollId);
    if (!poll) throw chatError.input(`poll with id ${pollId} does not exist`);
    if (!actor.isServer && poll.created_by_id !== userId)
      throw chatError.notAllowed('only the creator of a poll can send it');
    if (poll.message_id && poll.message_id !== row.id) {
      const carrier = await messages.repo.get(actor.appId, poll.message_id);
      if (carrier) throw chatError.input(`poll ${pollId} is already attached to a message`);
    }
    return async (trx) => {
      await repo.update(trx, actor.appId, pollId, { message_id: row.id, cid: row.cid });
    };
  });
}
