import { randomUUID } from 'node:crypto';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { ChannelAccess } from '../../core/channels/service.ts';
import type {
  BeforeMessageStored,
  BeforeMessageTextChanged,
  InMessageTransaction,
} from '../../core/extension-points.ts';
import type { BlocklistsService } from './blocklists.ts';
import type { ReviewRepo } from './review-repo.ts';
import { ENTITY_MESSAGE } from './review-repo.ts';

/** Stream's text for a message its moderation refused. */
export const BLOCKED_MESSAGE = 'Message was blocked by moderation policies';

interface Checked {
  actor: Actor;
  access: ChannelAccess;
  messageId: string;
  cid: string;
  authorId: string;
  text: string;
}

/** The checks on sends and on edits that change the text: one rule for both, so an edit cannot dodge the list. */
export interface BlocklistChecks {
  onSend: BeforeMessageStored;
  onEdit: BeforeMessageTextChanged;
}

/**
 * The channel type's block list on every message a user sends or edits (server-side calls skip moderation, as on
 * Stream). `block` refuses the message; `flag` stores it and puts it in the review queue, flagged by automod, in the
 * message's own transaction so a flagged message is never stored without its flag.
 */
export function blocklistChecks(
  blocklists: BlocklistsService,
  review: ReviewRepo,
  now: () => string,
): BlocklistChecks {
  const flagInTransaction =
    (checked: Checked, name: string, word: string): InMessageTransaction =>
    async (trx) => {
      const at = now();
      const { actor, messageId, cid, authorId } = checked;
      await review.insertAutomodFlag(trx, {
        app_id: actor.appId,
        user_id: authorId,
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
        entity_creator_id: authorId,
        channel_cid: cid,
        status: 'pending',
        latest_moderator_action: '',
        reviewed_by: null,
        reviewed_at: null,
        created_at: at,
        updated_at: at,
      });
    };

  async function check(checked: Checked): Promise<InMessageTransaction | undefined> {
    const name = checked.access.type.config.blocklist;
    if (!name || checked.actor.isServer || checked.text === '') return undefined;
    const matcher = await blocklists.matcher(checked.actor.appId, name);
    const word = matcher?.match(checked.text);
    if (word === undefined) return undefined;
    if (checked.access.type.config.blocklist_behavior !== 'flag')
      throw chatError.input(BLOCKED_MESSAGE);
    return flagInTransaction(checked, name, word);
  }

  return {
    onSend: async ({ actor, access, userId, row, system }) => {
      if (system || typeof row.text !== 'string' || typeof row.id !== 'string') return undefined;
      return check({
        actor,
        access,
        messageId: row.id,
        cid: row.cid,
        authorId: userId,
        text: row.text,
      });
    },
    onEdit: ({ actor, access, row, text }) =>
      check({ actor, access, messageId: row.id, cid: row.cid, authorId: row.user_id, text }),
  };
}
