import { randomUUID } from 'node:crypto';
import { chatError } from '../../../errors.ts';
import type { BeforeMessageStored } from '../../core/extension-points.ts';
import type { BlocklistsService } from './blocklists.ts';
import type { ReviewRepo } from './review-repo.ts';
import { ENTITY_MESSAGE } from './review-repo.ts';

/** Stream's text for a message its moderation refused. */
export const BLOCKED_MESSAGE = 'Message was blocked by moderation policies';

/**
 * The channel type's block list on every message a user sends (server-side sends skip moderation, as on Stream).
 * `block` refuses the message; `flag` stores it and puts it in the review queue, flagged by automod, in the
 * message's own transaction so a flagged message is never stored without its flag.
 */
export function checkBlocklist(
  blocklists: BlocklistsService,
  review: ReviewRepo,
  now: () => string,
): BeforeMessageStored {
  return async ({ actor, access, userId, row, system }) => {
    const name = access.type.config.blocklist;
    if (!name || system || actor.isServer || typeof row.text !== 'string' || row.text === '')
      return undefined;
    const matcher = await blocklists.matcher(actor.appId, name);
    const word = matcher?.match(row.text);
    if (word === undefined) return undefined;
    if (access.type.config.blocklist_behavior !== 'flag') throw chatError.input(BLOCKED_MESSAGE);
    const messageId = row.id;
    const cid = row.cid;
    return async (trx) => {
      const at = now();
      await review.insertAutomodFlag(trx, {
        app_id: actor.appId,
        user_id: userId,
        target: `message:${messageId}`,
        target_message_id: messageId,
        target_user_id: null,
        channel_cid: cid,
        reason: `blocklist: ${name}`,
        custom: JSON.stringify({ blocklist: name, word }),
        created_by_automod: 1,
        created_at: at,
        updated_at: at,
      });
      await review.openItem(trx, {
        id: randomUUID(),
        app_id: actor.appId,
        entity_type: ENTITY_MESSAGE,
        entity_id: messageId,
        entity_creator_id: userId,
        channel_cid: cid,
        status: 'pending',
        latest_moderator_action: '',
        reviewed_by: null,
        reviewed_at: null,
        created_at: at,
        updated_at: at,
      });
    };
  };
}
