import type { ChannelType, ChannelTypeConfig, ClientCapability } from '../channel-types.ts';
import { banHolds } from '../access/access.ts';
import { compact, parseObject, type JsonObject } from '../json.ts';
import type { ReadWithUnread } from '../reads/repo.ts';
import type { UserResponse } from '../users/serialize.ts';
import { userOf } from '../messages/serialize.ts';
import type { ChannelRow, MemberRow } from './repo.ts';

/** Fixed timestamps of the built-in channel type configs. */
const CONFIG_TIMESTAMP = '2024-01-01T00:00:00.000000Z';

export type ChannelConfigResponse = ChannelTypeConfig & { created_at: string; updated_at: string };

// Every channel object in every event carries its type's config: building it once per config (the built-in configs
// never change in place) saves copying ~40 keys per send. Callers treat the result as read-only.
const configResponses = new WeakMap<ChannelTypeConfig, ChannelConfigResponse>();

export function toConfigResponse(type: ChannelType): ChannelConfigResponse {
  const cached = configResponses.get(type.config);
  if (cached) return cached;
  const response = {
    ...type.config,
    created_at: type.created_at ?? CONFIG_TIMESTAMP,
    updated_at: type.updated_at ?? CONFIG_TIMESTAMP,
  };
  configResponses.set(type.config, response);
  return response;
}

export interface ChannelResponse {
  id: string;
  type: string;
  cid: string;
  created_by: UserResponse | null;
  created_at: string;
  updated_at: string;
  frozen: boolean;
  disabled: boolean;
  member_count: number;
  config: ChannelConfigResponse;
  own_capabilities?: ClientCapability[];
  [custom: string]: unknown;
}

/** The users a channel object names (its creator, who truncated it): fetch them for `toChannelResponse`. */
export function channelUserIds(
  row: Pick<ChannelRow, 'created_by_id' | 'truncated_by_id'>,
): string[] {
  const ids: string[] = [];
  if (row.created_by_id) ids.push(row.created_by_id);
  if (row.truncated_by_id && row.truncated_by_id !== row.created_by_id)
    ids.push(row.truncated_by_id);
  return ids;
}

/**
 * The channel object. `own_capabilities` is per requester: REST replies always carry it; shared event frames
 * leave it out, and the client then keeps the capabilities it already has.
 */
export function toChannelResponse(
  row: ChannelRow,
  type: ChannelType,
  users: Map<string, UserResponse>,
  extra: {
    ownCapabilities?: ClientCapability[];
    hidden?: boolean;
    members?: MemberResponse[];
  } = {},
): ChannelResponse {
  return compact({
    ...parseObject(row.custom),
    id: row.id,
    type: row.type,
    cid: row.cid,
    name: row.name ?? undefined,
    image: row.image ?? undefined,
    team: row.team ?? undefined,
    created_by: row.created_by_id ? userOf(users, row.created_by_id) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_message_at: row.last_message_at ?? undefined,
    deleted_at: row.deleted_at ?? undefined,
    truncated_at: row.truncated_at ?? undefined,
    truncated_by_id: row.truncated_by_id ?? undefined,
    truncated_by: row.truncated_by_id ? userOf(users, row.truncated_by_id) : undefined,
    frozen: row.frozen === 1,
    disabled: row.disabled === 1,
    cooldown: row.cooldown > 0 ? row.cooldown : undefined,
    member_count: row.member_count,
    config: toConfigResponse(type),
    config_overrides: row.config_overrides
      ? (JSON.parse(row.config_overrides) as JsonObject)
      : undefined,
    own_capabilities: extra.ownCapabilities,
    hidden: extra.hidden,
    members: extra.members,
  });
}

export interface MemberResponse {
  user_id: string;
  user: UserResponse;
  channel_role: string;
  role: string;
  is_moderator?: boolean;
  banned: boolean;
  shadow_banned: boolean;
  ban_expires?: string;
  notifications_muted: boolean;
  created_at: string;
  updated_at: string;
  pinned_at?: string;
  archived_at?: string;
  invited?: boolean;
  invite_accepted_at?: string;
  invite_rejected_at?: string;
  status?: MemberStatus;
  [custom: string]: unknown;
}

/** Stream's member `status` (the client's InviteStatus): where an invite stands, or `member` for everyone else. */
export type MemberStatus = 'pending' | 'rejected' | 'member';

export function memberStatus(
  row: Pick<MemberRow, 'invited' | 'invite_accepted_at' | 'invite_rejected_at'>,
): MemberStatus {
  if (row.invite_rejected_at) return 'rejected';
  // Stream: once accepted, an invitee is a member like any other (`invite_accepted_at` keeps when they accepted).
  if (row.invite_accepted_at) return 'member';
  return row.invited === 1 ? 'pending' : 'member';
}

export function toMemberResponse(row: MemberRow, users: Map<string, UserResponse>): MemberResponse {
  const isModerator = row.channel_role === 'channel_moderator';
  return compact({
    ...parseObject(row.custom),
    user_id: row.user_id,
    user: userOf(users, row.user_id),
    channel_role: row.channel_role,
    role:
      row.channel_role === 'channel_moderator'
        ? 'moderator'
        : row.channel_role === 'owner'
          ? 'owner'
          : 'member',
    is_moderator: isModerator ? true : undefined,
    banned: banHolds(row.banned, row.ban_expires),
    shadow_banned: banHolds(row.shadow_banned, row.ban_expires),
    ban_expires:
      row.ban_expires && banHolds(row.banned || row.shadow_banned, row.ban_expires)
        ? row.ban_expires
        : undefined,
    notifications_muted: row.notifications_muted === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    pinned_at: row.pinned_at ?? undefined,
    archived_at: row.archived_at ?? undefined,
    invited: row.invited === 1 ? true : undefined,
    invite_accepted_at: row.invite_accepted_at ?? undefined,
    invite_rejected_at: row.invite_rejected_at ?? undefined,
    status: memberStatus(row),
  });
}

export interface ReadResponse {
  user: UserResponse;
  last_read: string;
  unread_messages: number;
  last_read_message_id?: string;
  last_delivered_at?: string;
  last_delivered_message_id?: string;
}

export function toReadResponse(
  row: ReadWithUnread,
  users: Map<string, UserResponse>,
): ReadResponse {
  return compact({
    user: userOf(users, row.user_id),
    last_read: row.last_read,
    unread_messages: row.unread,
    last_read_message_id: row.last_read_message_id ?? undefined,
    last_delivered_at: row.last_delivered_at ?? undefined,
    last_delivered_message_id: row.last_delivered_message_id ?? undefined,
  });
}
