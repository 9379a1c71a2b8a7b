import { chatError } from '../../../errors.ts';
import { requireServerSide, type Actor } from '../../core/access/access.ts';
import { inWindow, viewerWindows } from '../../core/access/visibility.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessageRow, MessagesRepo } from '../../core/messages/repo.ts';
import type { MessageResponse } from '../../core/messages/serialize.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import type { PendingMessagesRepo } from './repo.ts';

/** One entry of a channel state's `pending_messages` (stream-chat `PendingMessageResponse`). */
export interface PendingMessageResponse {
  message: MessageResponse;
  pending_message_metadata?: Record<string, string>;
}

export interface PendingMessagesService {
  /** client.commitMessage(id): server-side only; the message becomes everyone's and is announced as new. */
  commit(actor: Actor, messageId: string): Promise<{ message: MessageResponse }>;
  /** The viewer's own pending messages of each channel, oldest first, for channel states (`pending_messages`). */
  channelPendingMessages(
    actor: Actor,
    cids: readonly string[],
  ): Promise<Map<string, PendingMessageResponse[]>>;
}

export interface PendingMessagesContext {
  deps: ChatDeps;
  repo: PendingMessagesRepo;
  messagesRepo: MessagesRepo;
  messages: Pick<MessagesService, 'publishCommitted'>;
  assembler: MessageAssembler;
}

function metadataOf(row: MessageRow): Record<string, string> | undefined {
  if (!row.pending_metadata) return undefined;
  return JSON.parse(row.pending_metadata) as Record<string, string>;
}

export function createPendingMessagesService(ctx: PendingMessagesContext): PendingMessagesService {
  return {
    async commit(actor, messageId) {
      requireServerSide(actor, 'committing a pending message is a server-side action');
      const row = await ctx.messagesRepo.get(actor.appId, messageId);
      if (!row) throw chatError.notFound(`message with id ${messageId} doesn't exist`);
      const notPending = () => chatError.input(`message with id ${messageId} is not pending`);
      if (row.pending !== 1) throw notPending();
      const message = await ctx.messages.publishCommitted(actor, row, async (trx) => {
        // Two commits racing: the second finds the flag already cleared and is refused like a late one.
        if (!(await ctx.repo.release(trx, actor.appId, messageId))) throw notPending();
      });
      return { message };
    },

    async channelPendingMessages(actor, cids) {
      const result = new Map<string, PendingMessageResponse[]>();
      if (!actor.userId || cids.length === 0) return result;
      const rows = await ctx.repo.ofAuthor(actor.appId, actor.userId, cids);
      if (rows.length === 0) return result;
      const windowOf = await viewerWindows(ctx.messagesRepo, actor.appId, cids, actor.userId);
      const visible = rows.filter((row) => inWindow(windowOf(row.cid), row)).reverse();
      const messages = await ctx.assembler.assemble(actor.appId, visible, actor.userId);
      visible.forEach((row, index) => {
        const metadata = metadataOf(row);
        const entry = {
          message: messages[index]!,
          ...(metadata ? { pending_message_metadata: metadata } : {}),
        };
        result.set(row.cid, [...(result.get(row.cid) ?? []), entry]);
      });
      return result;
    },
  };
}
