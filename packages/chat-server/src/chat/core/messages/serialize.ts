import { compact, parseArray, parseObject } from '../json.ts';
import type { ReactionGroup } from '../reactions/repo.ts';
import type { ReactionResponse } from '../reactions/serialize.ts';
import type { UserResponse } from '../users/serialize.ts';
import type { MessageRow } from './repo.ts';
import { restrictedTo } from '../access/visibility.ts';

/** Stream's MessageResponse (v1 wire format: custom keys at the top level). */
export interface MessageResponse {
  id: string;
  cid: string;
  type: string;
  text: string;
  html: string;
  user: UserResponse;
  attachments: unknown[];
  mentioned_users: UserResponse[];
  latest_reactions: ReactionResponse[];
  own_reactions: ReactionResponse[];
  reaction_counts: Record<string, number>;
  reaction_scores: Record<string, number>;
  reaction_groups: Record<string, ReactionGroup> | null;
  reply_count: number;
  deleted_reply_count: number;
  silent: boolean;
  shadowed: boolean;
  pinned: boolean;
  pinned_at: string | null;
  pinned_by: UserResponse | null;
  pin_expires: string | null;
  created_at: string;
  updated_at: string;
  deleted_at?: string;
  /** Set only in the view of the user who deleted the message for themselves. */
  deleted_for_me?: boolean;
  /** When an edit last changed the text (stream-chat-react shows "Edited" when it is set). */
  message_text_updated_at?: string;
  parent_id?: string;
  show_in_channel?: boolean;
  quoted_message_id?: string;
  quoted_message?: MessageResponse;
  /** The users a message is restricted to besides its author (access/visibility.ts). */
  restricted_visibility?: string[];
  thread_participants?: UserResponse[];
  [custom: string]: unknown;
}

/** What a message needs besides its row; loaded in bulk by the assembler. */
export interface MessageExtras {
  users: Map<string, UserResponse>;
  latestReactions: ReactionResponse[];
  ownReactions: ReactionResponse[];
  quoted?: MessageResponse;
  threadParticipants?: UserResponse[];
  /** Pins whose pin_expires is at or before this instant read as unpinned. */
  now?: string;
}

export function userOf(users: Map<string, UserResponse>, id: string): UserResponse {
  return (
    users.get(id) ?? {
      id,
      role: 'user',
      language: '',
      teams: [],
      banned: false,
      online: false,
      invisible: false,
      created_at: '',
      updated_at: '',
      blocked_user_ids: [],
    }
  );
}

export function toMessageResponse(row: MessageRow, extras: MessageExtras): MessageResponse {
  const groups = parseObject(row.reaction_groups) as Record<string, ReactionGroup>;
  const counts: Record<string, number> = {};
  const scores: Record<string, number> = {};
  for (const [type, group] of Object.entries(groups)) {
    counts[type] = group.count;
    scores[type] = group.sum_scores;
  }
  const mentioned = (parseArray(row.mentioned_users) as string[]).map((id) =>
    userOf(extras.users, id),
  );
  const pinExpired =
    row.pinned === 1 &&
    row.pin_expires !== null &&
    extras.now !== undefined &&
    row.pin_expires <= extras.now;
  const pinned = row.pinned === 1 && !pinExpired;
  const response: MessageResponse = {
    ...parseObject(row.custom),
    id: row.id,
    cid: row.cid,
    type: row.type,
    text: row.text,
    html: row.html,
    user: userOf(extras.users, row.user_id),
    attachments: parseArray(row.attachments),
    mentioned_users: mentioned,
    latest_reactions: extras.latestReactions,
    own_reactions: extras.ownReactions,
    reaction_counts: counts,
    reaction_scores: scores,
    reaction_groups: Object.keys(groups).length > 0 ? groups : null,
    reply_count: row.reply_count,
    deleted_reply_count: row.deleted_reply_count,
    silent: row.silent === 1,
    // Only its author ever receives a shadowed message (access/visibility.ts), and to them it looks sent.
    shadowed: false,
    pinned,
    pinned_at: pinned ? row.pinned_at : null,
    pinned_by: pinned && row.pinned_by_id ? userOf(extras.users, row.pinned_by_id) : null,
    pin_expires: pinned ? row.pin_expires : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  if (row.deleted_at) response.deleted_at = row.deleted_at;
  const audience = restrictedTo(row);
  if (audience) response.restricted_visibility = audience;
  if (row.message_text_updated_at) response.message_text_updated_at = row.message_text_updated_at;
  if (row.parent_id) {
    response.parent_id = row.parent_id;
    response.show_in_channel = row.show_in_channel === 1;
  }
  if (row.quoted_message_id) {
    response.quoted_message_id = row.quoted_message_id;
    if (extras.quoted) response.quoted_message = extras.quoted;
  }
  if (extras.threadParticipants && extras.threadParticipants.length > 0) {
    response.thread_participants = extras.threadParticipants;
  }
  return compact(response);
}

/**
 * What survives a hard delete, exactly: id, cid, created_at, updated_at, deleted_at, parent_id, reply_count,
 * status, thread_participants, user; type 'deleted'; attachments, reactions and mentions empty.
 */
export function toHardDeletedResponse(
  message: MessageResponse,
  deletedAt: string,
): Record<string, unknown> {
  return compact({
    id: message.id,
    cid: message.cid,
    type: 'deleted',
    created_at: message.created_at,
    updated_at: deletedAt,
    deleted_at: deletedAt,
    parent_id: message.parent_id,
    reply_count: message.reply_count,
    status: 'received',
    thread_participants: message.thread_participants ?? [],
    user: message.user,
    attachments: [],
    latest_reactions: [],
    own_reactions: [],
    mentioned_users: [],
  });
}
