import type { ColumnType, Kysely } from 'kysely';

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
  /** When a timed app-wide ban lapses (migration 0008); `banned` is read against it. */
  ban_expires: string | null;
  invisible: number;
  /** JSON of Stream's privacy_settings; null when never set (everything on). */
  privacy_settings: string | null;
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
  /** Bumped by triggers on every write to the channel's messages or members (migration 0023). */
  state_version: ColumnType<number, never, never>;
  /** Channel-level settings over the type's, as checked JSON (chat/core/channel-types/overrides.ts). */
  config_overrides: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who last truncated the channel, when a user did (migration 0026). */
  truncated_by_id: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** When a timed channel ban lapses (migration 0008); `banned` and `shadow_banned` are read against it. */
  ban_expires: string | null;
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
  /** Set when an edit changes the text (migration 0005); null for never-edited messages. */
  message_text_updated_at: string | null;
  /** The folded words of `text` (migration 0007, `searchText` in @daohuu/domain), indexed for search. */
  search_text: ColumnType<string, string | undefined, string>;
  /** 1 while the message waits for the server's commit, seen by its author alone (migration 0019). */
  pending: ColumnType<number, number | undefined, number>;
  /** The sender's `pending_message_metadata`, JSON (migration 0019); null when none was given. */
  pending_metadata: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The users a message is restricted to besides its author, a JSON list (migration 0027); null when it is for
   * everyone. Each is also a `message_visibility` row.
   */
  restricted_visibility: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Who a restricted message exists for, besides its author (migration 0027). */
export interface MessageVisibilityTable {
  app_id: string;
  message_id: string;
  user_id: string;
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

export interface PollsTable {
  app_id: string;
  id: string;
  name: string;
  description: string;
  created_by_id: string;
  voting_visibility: string;
  enforce_unique_vote: number;
  max_votes_allowed: number | null;
  allow_answers: number;
  allow_user_suggested_options: number;
  is_closed: number;
  custom: string;
  message_id: string | null;
  cid: string | null;
  created_at: string;
  updated_at: string;
}

export interface PollOptionsTable {
  app_id: string;
  poll_id: string;
  id: string;
  text: string;
  position: number;
  custom: string;
  created_at: string;
  updated_at: string;
}

/** Option votes (option_id set) and answers (is_answer 1, answer_text set). */
export interface PollVotesTable {
  app_id: string;
  id: string;
  poll_id: string;
  user_id: string;
  option_id: string | null;
  answer_text: string | null;
  is_answer: number;
  created_at: string;
  updated_at: string;
}

/** One draft per user, channel and thread (parent_id '' for the channel itself); message is the draft as JSON. */
export interface DraftsTable {
  app_id: string;
  user_id: string;
  cid: string;
  parent_id: string;
  message: string;
  created_at: string;
  updated_at: string;
}

/** A background task (migration 0012): batch deletes of channels and users. */
export interface TasksTable {
  app_id: string;
  id: string;
  kind: string;
  status: string;
  params: string;
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** A message one user deleted for themselves only (migration 0017); everyone else still sees it. */
export interface MessagesDeletedForMeTable {
  app_id: string;
  user_id: string;
  message_id: string;
  deleted_at: string;
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
  polls: PollsTable;
  poll_options: PollOptionsTable;
  poll_votes: PollVotesTable;
  drafts: DraftsTable;
  tasks: TasksTable;
  messages_deleted_for_me: MessagesDeletedForMeTable;
  message_visibility: MessageVisibilityTable;
}

export type Db = Kysely<Database>;
export type SqlDialectKind = 'sqlite' | 'postgres';
