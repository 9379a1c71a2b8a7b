import type { Kysely } from 'kysely';

/*
 * Row types. Dialect-neutral storage rules: timestamps are ISO-8601 UTC text (they sort as text), booleans are
 * integers 0/1, JSON documents are text. Every table carries app_id, and it leads every primary key and index.
 */

export interface AppsTable {
  id: string;
  api_key: string;
  name: string;
  settings: string;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  app_id: string;
  id: string;
  role: string;
  name: string | null;
  /** Lower-cased name for $autocomplete; SQLite's lower() ignores non-ASCII letters such as "Đ". */
  name_search: string | null;
  image: string | null;
  language: string;
  custom: string;
  teams: string;
  banned: number;
  invisible: number;
  created_at: string;
  updated_at: string;
  last_active: string | null;
  deactivated_at: string | null;
  deleted_at: string | null;
}

export interface ChannelsTable {
  app_id: string;
  cid: string;
  type: string;
  id: string;
  created_by_id: string | null;
  name: string | null;
  name_search: string | null;
  image: string | null;
  custom: string;
  team: string | null;
  frozen: number;
  disabled: number;
  cooldown: number;
  member_count: number;
  /** Sorted member ids for channels created from a member list (distinct channels). */
  distinct_key: string | null;
  last_message_at: string | null;
  truncated_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface MembersTable {
  app_id: string;
  cid: string;
  user_id: string;
  channel_role: string;
  custom: string;
  invited: number;
  invite_accepted_at: string | null;
  invite_rejected_at: string | null;
  banned: number;
  shadow_banned: number;
  notifications_muted: number;
  hidden: number;
  hide_messages_before: string | null;
  pinned_at: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface MessagesTable {
  app_id: string;
  id: string;
  cid: string;
  user_id: string;
  type: string;
  text: string;
  html: string;
  parent_id: string | null;
  show_in_channel: number;
  quoted_message_id: string | null;
  attachments: string;
  mentioned_users: string;
  custom: string;
  silent: number;
  shadowed: number;
  pinned: number;
  pinned_at: string | null;
  pinned_by_id: string | null;
  pin_expires: string | null;
  reply_count: number;
  deleted_reply_count: number;
  /** Aggregate of reactions by type: {type: {count, sum_scores, first_reaction_at, last_reaction_at}}. */
  reaction_groups: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ReactionsTable {
  app_id: string;
  message_id: string;
  user_id: string;
  type: string;
  score: number;
  custom: string;
  created_at: string;
  updated_at: string;
}

/** Read state per user and channel (thread_id '') or per user and thread (thread_id = parent message id). */
export interface ReadsTable {
  app_id: string;
  cid: string;
  user_id: string;
  thread_id: string;
  last_read: string;
  last_read_message_id: string | null;
  /** Set by mark-unread: the count is pinned until the next mark-read. */
  unread_messages: number | null;
  first_unread_message_id: string | null;
  last_delivered_at: string | null;
  last_delivered_message_id: string | null;
}

export interface ThreadsTable {
  app_id: string;
  parent_message_id: string;
  cid: string;
  created_by_id: string;
  title: string | null;
  custom: string;
  participant_count: number;
  reply_count: number;
  last_message_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ThreadParticipantsTable {
  app_id: string;
  parent_message_id: string;
  user_id: string;
  created_at: string;
  last_thread_message_at: string | null;
}

export interface UserMutesTable {
  app_id: string;
  user_id: string;
  target_id: string;
  created_at: string;
  updated_at: string;
  expires: string | null;
}

export interface ChannelMutesTable {
  app_id: string;
  user_id: string;
  cid: string;
  created_at: string;
  updated_at: string;
  expires: string | null;
}

export interface Database {
  apps: AppsTable;
  users: UsersTable;
  channels: ChannelsTable;
  members: MembersTable;
  messages: MessagesTable;
  reactions: ReactionsTable;
  reads: ReadsTable;
  threads: ThreadsTable;
  thread_participants: ThreadParticipantsTable;
  user_mutes: UserMutesTable;
  channel_mutes: ChannelMutesTable;
}

export type Db = Kysely<Database>;
export type SqlDialectKind = 'sqlite' | 'postgres';
