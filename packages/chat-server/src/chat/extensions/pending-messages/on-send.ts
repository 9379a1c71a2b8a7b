import { chatError } from '../../../errors.ts';
import { isPlainObject } from '../../core/json.ts';
import type { BeforeMessageStored } from '../../core/extension-points.ts';

/** The send options that ask for a pending message (`is_pending_message` is Stream's deprecated spelling). */
function asksPending(options: Record<string, unknown>): boolean {
  return options.pending === true || options.is_pending_message === true;
}

/**
 * Marks a message pending before it is stored, as Stream does: every message a user sends in a channel whose type has
 * `mark_messages_pending` on, and any message a server-side send marks `pending` (that overrides the type). A user
 * token asking for `pending` where the type does not hold messages is refused (17): Stream makes it a server-side
 * feature. System messages are never held.
 */
export function markPendingOnSend(): BeforeMessageStored {
  return async ({ actor, access, row, system, sendOptions }) => {
    if (system || row.type === 'system') return undefined;
    const held = access.type.config.mark_messages_pending === true;
    const asked = asksPending(sendOptions);
    if (asked && !held && !actor.isServer)
      throw chatError.notAllowed(
        `pending messages can be sent server-side only, or in channel types with mark_messages_pending (${access.type.name} has it off)`,
      );
    if (!held && !asked) return undefined;
    const metadata = sendOptions.pending_message_metadata;
    row.pending = 1;
    row.pending_metadata =
      isPlainObject(metadata) && Object.keys(metadata).length > 0 ? JSON.stringify(metadata) : null;
    return undefined;
  };
}
