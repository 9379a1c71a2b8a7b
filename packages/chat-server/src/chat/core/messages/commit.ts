import type { Actor } from '../access/access.ts';
import type { InMessageTransaction } from '../extension-points.ts';
import type { AnnounceNewMessage } from './announce.ts';
import type { MessagesUseCaseContext } from './context.ts';
import type { MessageRow } from './repo.ts';
import type { MessagesService } from './service.ts';
import { recordCommitted } from './store.ts';

/**
 * Publishing a pending message once the pending-messages extension commits it: in one transaction the extension's
 * `release` (which clears the flag and refuses a message that is no longer pending) and what the send left undone
 * (store.ts `recordCommitted`); then `message.new`, notifications and thread events as for a fresh send.
 */
export function createCommitUseCase(
  context: MessagesUseCaseContext & { announce: AnnounceNewMessage },
): Pick<MessagesService, 'publishCommitted'> {
  const { deps, repo, channels, assembler, announce } = context;
  return {
    async publishCommitted(actor: Actor, row: MessageRow, release: InMessageTransaction) {
      const server = { ...actor, isServer: true };
      const { channel } = await channels.access(server, row.cid);
      const parent = row.parent_id ? await repo.get(actor.appId, row.parent_id) : undefined;
      const committed = { ...row, pending: 0, pending_metadata: null };
      const lastMessageAt = await deps.writes.run(async (trx) => {
        await release(trx);
        return recordCommitted(context, trx, { row: committed, parent, channel });
      });
      const message = await assembler.one(actor.appId, committed, null);
      await announce(actor, {
        row: committed,
        message,
        channel: { ...channel, last_message_at: lastMessageAt },
      });
      return message;
    },
  };
}
