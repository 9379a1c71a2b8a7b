import { chatError } from '../../../errors.ts';
import { isPlainObject, type JsonObject } from '../json.ts';
import type { MessagesService } from './service.ts';
import type { AnnounceNewMessage } from './announce.ts';
import type { MessagesUseCaseContext } from './context.ts';
import type { InsertMessage } from './insert.ts';
import { answersFrozen, frozenErrorMessage } from './frozen.ts';

/** What the send use cases add to the shared context: the insert and the announcement of what it stored. */
export interface SendContext extends MessagesUseCaseContext {
  insert: InsertMessage;
  announce: AnnounceNewMessage;
}

/** A user's (or the server's) send, and the system message of a channel update or truncate. */
export function createSendUseCases(
  context: SendContext,
): Pick<MessagesService, 'send' | 'sendSystem'> {
  const { channels, insert, announce, lookup } = context;
  return {
    async send(actor, typeName, id, body) {
      const access = await lookup.channelAccess(actor, typeName, id);
      if (!isPlainObject(body.message)) throw chatError.input('message is required');
      if (answersFrozen(actor, access, body.message.parent_id)) {
        const user = await context.users.response(actor.appId, actor.userId ?? '');
        return {
          message: frozenErrorMessage(body.message, access, user, context.deps.clock.now()),
        };
      }
      const { message: input, ...sendOptions } = body;
      const stored = await insert(actor, access, input, { sendOptions });
      await announce(actor, stored);
      // A new message has no reactions yet, so the sender's copy and the watchers' copy are the same object. A pending
      // message's reply carries its metadata back, as Stream's SendMessageResponse does.
      const metadata = stored.row.pending_metadata;
      return {
        message: stored.message,
        ...(metadata ? { pending_message_metadata: JSON.parse(metadata) as JsonObject } : {}),
      };
    },

    async sendSystem(actor, channel, input) {
      const server = { ...actor, isServer: true };
      const access = await channels.accessRow(server, channel);
      const stored = await insert(server, access, input, { system: true });
      await announce(actor, stored);
      return stored.message;
    },
  };
}
