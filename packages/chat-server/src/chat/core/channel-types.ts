/**
 * Built-in channel types, modelled on Stream's defaults. A type fixes the feature config sent as `channel.config`
 * and the grants that turn a user's roles into `own_capabilities`.
 */

export type Role =
  | 'anonymous'
  | 'guest'
  | 'user'
  | 'channel_member'
  | 'channel_moderator'
  | 'channel_owner'
  | 'moderator'
  | 'admin';

/** Capabilities reported to the client (names from stream-chat's ChannelOwnCapability). */
export const CLIENT_CAPABILITIES = [
  'ban-channel-members',
  'cast-poll-vote',
  'connect-events',
  'delete-any-message',
  'delete-channel',
  'delete-own-message',
  'flag-message',
  'freeze-channel',
  'join-channel',
  'leave-channel',
  'mute-channel',
  'pin-message',
  'query-poll-votes',
  'quote-message',
  'read-events',
  'search-messages',
  'send-custom-events',
  'send-links',
  'send-message',
  'send-poll',
  'send-reaction',
  'send-reply',
  'send-typing-events',
  'set-channel-cooldown',
  'share-location',
  'skip-slow-mode',
  'typing-events',
  'update-any-message',
  'update-channel',
  'update-channel-members',
  'update-own-message',
  'update-thread',
  'upload-file',
] as const;

export type ClientCapability = (typeof CLIENT_CAPABILITIES)[number];

/** Server-side permissions that are not reported as capabilities but gate reads. */
export type InternalPermission =
  | 'read-channel'
  | 'create-channel'
  | 'watch-channel'
  | 'create-system-message'
  | 'create-restricted-visibility-message'
  | 'use-frozen-channel'
  | UngatedPermission;

/**
 * Stream permissions a grant list may carry that gate nothing here: mentions and group notifications are open to
 * everyone who may send. They are kept in grants as given, so a type built from Stream's own grant lists (as its docs
 * do) is accepted and reads back unchanged.
 */
export const UNGATED_PERMISSIONS = [
  'create-mention',
  'notify-here',
  'notify-channel',
  'notify-role',
  'notify-group',
] as const;
type UngatedPermission = (typeof UNGATED_PERMISSIONS)[number];
export type Permission = ClientCapability | InternalPermission;

export interface ChannelTypeConfig {
  name: string;
  typing_events: boolean;
  read_events: boolean;
  connect_events: boolean;
  custom_events: boolean;
  delivery_events: boolean;
  reactions: boolean;
  replies: boolean;
  quotes: boolean;
  search: boolean;
  mutes: boolean;
  uploads: boolean;
  url_enrichment: boolean;
  push_notifications: boolean;
  polls: boolean;
  shared_locations: boolean;
  reminders: boolean;
  user_message_reminders: boolean;
  mark_messages_pending: boolean;
  skip_last_msg_update_for_system_msgs: boolean;
  count_messages: boolean;
  message_retention: string;
  max_message_length: number;
  automod: 'disabled' | 'simple' | 'AI';
  automod_behavior: 'flag' | 'block';
  /** The app block list (by name) every message of the type is checked against, if any. */
  blocklist?: string;
  /** What a match does: `flag` stores the message and flags it for review, `block` refuses it. */
  blocklist_behavior?: 'flag' | 'block';
  commands: { name: string; description: string; args: string; set: string }[];
}

export interface ChannelType {
  name: string;
  config: ChannelTypeConfig;
  grants: Partial<Record<Role, readonly Permission[]>>;
  /** When the stored type was created and last changed (absent on the built-in constants). */
  created_at?: string;
  updated_at?: string;
}

export const ROLES: readonly Role[] = [
  'anonymous',
  'guest',
  'user',
  'channel_member',
  'channel_moderator',
  'moderator',
  'admin',
];

export const PERMISSIONS: readonly Permission[] = [
  ...CLIENT_CAPABILITIES,
  'read-channel',
  'create-channel',
  'watch-channel',
  'create-system-message',
  'create-restricted-visibility-message',
  'use-frozen-channel',
  ...UNGATED_PERMISSIONS,
];

/**
 * The live channel types of each app (core/channel-types/store.ts keeps them, loaded at start and refreshed on
 * change). Synchronous on purpose: every request and event reads it on its hot path.
 */
export interface ChannelTypeLookup {
  get(appId: string, name: string): ChannelType | undefined;
  list(appId: string): readonly ChannelType[];
}

const READ: readonly Permission[] = [
  'read-channel',
  'watch-channel',
  'read-events',
  'connect-events',
  'typing-events',
];

const MEMBER: readonly Permission[] = [
  ...READ,
  'send-message',
  'send-reply',
  'send-reaction',
  'send-links',
  'send-typing-events',
  'send-custom-events',
  'send-poll',
  'cast-poll-vote',
  'query-poll-votes',
  'share-location',
  'upload-file',
  'quote-message',
  'update-own-message',
  'delete-own-message',
  'flag-message',
  'mute-channel',
  'leave-channel',
  'search-messages',
  'update-thread',
];

const MODERATOR: readonly Permission[] = [
  ...MEMBER,
  'update-any-message',
  'delete-any-message',
  'pin-message',
  'ban-channel-members',
  'update-channel',
  'update-channel-members',
  'freeze-channel',
  'set-channel-cooldown',
  'skip-slow-mode',
];

const ADMIN: readonly Permission[] = [
  ...MODERATOR,
  // Stream's Create System Message: a client-side `type: 'system'` send needs it; the server never does.
  'create-system-message',
  // Stream's Create Restricted Visibility Message: a client-side send with `restricted_visibility` needs it.
  'create-restricted-visibility-message',
  'create-channel',
  'delete-channel',
  'join-channel',
];

export function defaultConfig(
  name: string,
  overrides: Partial<ChannelTypeConfig> = {},
): ChannelTypeConfig {
  return {
    name,
    typing_events: true,
    read_events: true,
    connect_events: true,
    custom_events: true,
    delivery_events: false,
    reactions: true,
    replies: true,
    quotes: true,
    search: true,
    mutes: true,
    uploads: true,
    url_enrichment: true,
    push_notifications: true,
    polls: true,
    shared_locations: true,
    reminders: false,
    user_message_reminders: true,
    mark_messages_pending: false,
    skip_last_msg_update_for_system_msgs: false,
    count_messages: false,
    message_retention: 'infinite',
    max_message_length: 5000,
    automod: 'disabled',
    automod_behavior: 'flag',
    commands: [],
    ...overrides,
  };
}

/** Private conversations: only members read and write, and may rename the group and invite; any user may create one. */
const messaging: ChannelType = {
  name: 'messaging',
  config: defaultConfig('messaging'),
  grants: {
    user: ['create-channel'],
    channel_member: [...MEMBER, 'pin-message', 'update-channel', 'update-channel-members'],
    channel_moderator: MODERATOR,
    moderator: MODERATOR,
    admin: ADMIN,
  },
};

/** Public broadcast: anyone (even anonymous) may watch and read; members write. */
const livestream: ChannelType = {
  name: 'livestream',
  config: defaultConfig('livestream', { typing_events: false, read_events: false }),
  grants: {
    anonymous: ['read-channel', 'watch-channel'],
    guest: ['read-channel', 'watch-channel'],
    user: ['read-channel', 'watch-channel', 'join-channel', 'create-channel'],
    channel_member: MEMBER,
    channel_moderator: MODERATOR,
    moderator: MODERATOR,
    admin: ADMIN,
  },
};

/**
 * The sect's public rooms (the product's Quảng Trường, Luận Đạo, Giao Dịch): anyone, even anonymous, reads and
 * watches as in livestream, but every signed-in cultivator is a member (the product adds them), so read state, unread
 * counts, read and typing events are on. Users may not create one: the product server creates them.
 */
const sect: ChannelType = {
  name: 'sect',
  config: defaultConfig('sect'),
  grants: {
    anonymous: ['read-channel', 'watch-channel'],
    guest: ['read-channel', 'watch-channel'],
    user: ['read-channel', 'watch-channel', 'join-channel'],
    channel_member: MEMBER,
    channel_moderator: MODERATOR,
    moderator: MODERATOR,
    admin: ADMIN,
  },
};

/** Team rooms: members only, channel moderators manage. */
const team: ChannelType = {
  name: 'team',
  config: defaultConfig('team'),
  grants: {
    user: ['create-channel'],
    channel_member: MEMBER,
    channel_moderator: MODERATOR,
    moderator: [...MODERATOR, 'create-channel'],
    admin: ADMIN,
  },
};

/** Support conversations: guests may open one; members only. */
const commerce: ChannelType = {
  name: 'commerce',
  config: defaultConfig('commerce', { url_enrichment: true }),
  grants: {
    guest: ['create-channel'],
    user: ['create-channel'],
    channel_member: MEMBER,
    channel_moderator: MODERATOR,
    moderator: MODERATOR,
    admin: ADMIN,
  },
};

/** Game rooms: like livestream but users read too and no uploads. */
const gaming: ChannelType = {
  name: 'gaming',
  config: defaultConfig('gaming', {
    uploads: false,
    replies: false,
    typing_events: false,
    read_events: false,
  }),
  grants: {
    anonymous: ['read-channel', 'watch-channel'],
    guest: ['read-channel', 'watch-channel'],
    user: ['read-channel', 'watch-channel', 'join-channel', 'create-channel'],
    channel_member: MEMBER.filter((p) => p !== 'upload-file'),
    channel_moderator: MODERATOR,
    moderator: MODERATOR,
    admin: ADMIN,
  },
};

export const BUILTIN_CHANNEL_TYPES: Record<string, ChannelType> = {
  messaging,
  livestream,
  sect,
  team,
  commerce,
  gaming,
};

/** The built-in definition only: code that has an app at hand reads the live one from `deps.channelTypes`. */
export function channelTypeByName(name: string): ChannelType | undefined {
  return Object.prototype.hasOwnProperty.call(BUILTIN_CHANNEL_TYPES, name)
    ? BUILTIN_CHANNEL_TYPES[name]
    : undefined;
}
