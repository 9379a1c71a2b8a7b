import type { MessageFields } from '../../core/extension-points.ts';
import type { PollsCore } from './core.ts';

/** Every assembled message embeds the poll it carries (attaching one on send is `attach-on-send.ts`). */
export function pollMessageFields(core: PollsCore): MessageFields {
  const { repo } = core;

  // Every assembled message that carries a poll embeds it, with the viewer's own votes: only the poll attached to
  // that very message (a send not yet committed has not recorded the attachment the send hook checked).
  return async (appId, rows, viewerId, { fresh }) => {
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
  };
}
