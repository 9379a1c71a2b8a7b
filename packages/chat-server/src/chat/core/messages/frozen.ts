import type { Actor } from '../access/access.ts';
import type { ChannelAccess } from '../channels/service.ts';
import type { JsonObject } from '../json.ts';
import type { UserResponse } from '../users/serialize.ts';
import type { MessageResponse } from './serialize.ts';

/** Who still writes in a frozen channel: the server, and whoever the type grants `use-frozen-channel`. */
export function writesWhenFrozen(
  actor: Actor,
  access: Pick<ChannelAccess, 'permissions'>,
): boolean {
  return actor.isServer || access.permissions.has('use-frozen-channel');
}

/** Stream's own text for a message sent to a frozen channel. */
export const FROZEN_CHANNEL_TEXT = 'Sorry, this channel has been frozen by the admin';

/**
 * Whether a send to this channel is answered with Stream's frozen error message instead of being stored: the channel
 * is frozen, the caller is a user (the server writes anyway), and the user could otherwise post (a caller without the
 * permission still gets code 17).
 */
export function answersFrozen(actor: Actor, access: ChannelAccess, parentId: unknown): boolean {
  if (access.channel.frozen !== 1 || writesWhenFrozen(actor, access)) return false;
  return access.permissions.has(parentId ? 'send-reply' : 'send-message');
}

/**
 * Stream answers a send to a frozen channel with 201 and an ephemeral message of type `error` carrying the client's
 * id, so the client replaces its optimistic copy with the explanation. Nothing is stored or announced.
 */
export function frozenErrorMessage(
  input: JsonObject,
  access: ChannelAccess,
  user: UserResponse,
  now: string,
): MessageResponse {
  const id = typeof input.id === 'string' && input.id ? input.id : crypto.randomUUID();
  return {
    id,
    cid: access.channel.cid,
    type: 'error',
    text: FROZEN_CHANNEL_TEXT,
    html: `<p>${FROZEN_CHANNEL_TEXT}</p>\n`,
    user,
    attachments: [],
    mentioned_users: [],
    latest_reactions: [],
    own_reactions: [],
    reaction_counts: {},
    reaction_scores: {},
    reaction_groups: null,
    reply_count: 0,
    deleted_reply_count: 0,
    silent: false,
    shadowed: false,
    pinned: false,
    pinned_at: null,
    pinned_by: null,
    pin_expires: null,
    created_at: now,
    updated_at: now,
    ...(typeof input.parent_id === 'string' ? { parent_id: input.parent_id } : {}),
  };
}
