import { chatError } from '../../../errors.ts';
import type { BeforeMessageStored } from '../../core/extension-points.ts';
import type { ModerationRepo } from './repo.ts';

/**
 * Stream's block rule for one-to-one conversations: whoever a user blocked can no longer write to them there.
 * One-to-one means two members, distinct or not (blocks-rules.ts). Group channels are not affected, and the product
 * backend (server-side sends) is never refused.
 */
export function refuseBlockedDirectMessages(repo: ModerationRepo): BeforeMessageStored {
  return async ({ actor, access, userId, system }) => {
    const channel = access.channel;
    if (system || actor.isServer || channel.member_count !== 2) return undefined;
    if (await repo.blockedByOtherMember(actor.appId, channel.cid, userId))
      throw chatError.notAllowed('you cannot send messages to a user who blocked you');
    return undefined;
  };
}
