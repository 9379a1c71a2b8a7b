/**
 * The JSON shapes of the product API (docs/product-api.md) as both apps/server and apps/web code against them: the
 * server's handlers return these types and the web app's fetchers read them, so the two cannot drift apart.
 * Types only: nothing here exists at run time.
 */
import type { ModerationAction } from './moderation.ts';
import type { Role } from './roles.ts';

/** `GET /api/me`, `PATCH /api/me`, `PATCH /api/admin/users/:id`: a cultivator as the product describes them. */
export interface Profile {
  id: string;
  daoHieu: string;
  email: string;
  role: Role;
  tuVi: number;
  balance: number;
  /** A same-origin path of an uploaded file (packages/domain avatar rule), or null. */
  image: string | null;
  /** ISO 8601. */
  createdAt: string;
}

/** `GET /api/me/settings`, and the body of `PATCH /api/me/settings`: the cultivator's own settings. */
export interface UserSettings {
  /** Announce each breakthrough into a new realm in Quảng Trường (once per realm). Default false. */
  announceBreakthrough: boolean;
}

/** Body of `PATCH /api/me`. */
export interface OwnProfilePatch {
  daoHieu: string;
}

/** Body of `PATCH /api/admin/users/:id`: any of these fields. */
export interface AdminUserPatch {
  tuVi?: number;
  balance?: number;
  role?: Role;
}

/** `GET /api/admin/users`: one page of users, newest first, with the total matching the query. */
export interface UsersPage {
  users: Profile[];
  total: number;
}

/** One of the official sect channels every cultivator (and every guest, read-only) can open. */
export interface PublicChannel {
  type: 'sect';
  id: string;
  name: string;
}

/** `GET /api/chat/config`: what the web app needs to create its `StreamChat` client. */
export interface ChatClientConfig {
  mode: 'embedded' | 'hosted';
  apiKey: string;
  /** Embedded: the absolute URL of /chat as the browser reaches it; hosted: STREAM_BASE_URL, or null for the client's default. */
  baseURL: string | null;
  publicChannels: PublicChannel[];
}

/** `GET /api/chat/token`: a chat token for the signed-in cultivator. */
export interface ChatToken {
  token: string;
  /** = Profile.id */
  userId: string;
  /** ISO 8601. */
  expiresAt: string;
}

/** One row of `GET /api/users/search`. */
export interface UserSearchHit {
  id: string;
  daoHieu: string;
  tuVi: number;
  image: string | null;
}

/** `GET /api/users/search?q=`. */
export interface UserSearchResult {
  users: UserSearchHit[];
}

/** Every product API failure: a stable code and a Vietnamese message the web app may show as it is. */
export interface ApiErrorBody {
  error: { code: string; message: string };
}

/**
 * Custom fields the product puts on chat users (the chat server keeps custom data at the top level of each user).
 * Both apps merge this into stream-chat's `CustomUserData`.
 */
export interface ChatUserCustomData {
  /** The cultivator's tu vi, synced by the product server; absent for users it never synced. */
  tu_vi?: number;
}

/** Custom fields of chat channels the product reads or writes (stream-chat's `CustomChannelData`). */
export interface ChatChannelCustomData {
  name?: string;
  description?: string;
  image?: string;
}

/** A chat message as the moderation screen shows it. */
export interface ModeratedMessage {
  id: string;
  text: string;
  userId: string | null;
  userName: string | null;
  cid: string | null;
  /** ISO 8601. */
  createdAt: string | null;
  deleted: boolean;
}

/** One report (flag) on a queue item. */
export interface ModerationReport {
  reason: string;
  reporterId: string | null;
  reporterName: string | null;
  createdAt: string | null;
}

/** One action a moderator already took, from the item's action log or an earlier item on the same user. */
export interface ModerationActionRecord {
  type: string;
  reason: string | null;
  moderatorId: string | null;
  createdAt: string | null;
}

/** One review-queue item: a flagged message or user with what a moderator needs to decide. */
export interface ModerationQueueItem {
  id: string;
  kind: 'message' | 'user';
  status: string;
  /** ISO 8601. */
  createdAt: string | null;
  targetUserId: string | null;
  targetUserName: string | null;
  message: ModeratedMessage | null;
  /** A few messages before and after the flagged one, oldest first, the flagged one included. */
  context: ModeratedMessage[];
  reports: ModerationReport[];
  actions: ModerationActionRecord[];
  /** Actions taken on the same user in earlier items, newest first. */
  history: ModerationActionRecord[];
}

/** `GET /api/admin/moderation/queue`. */
export interface ModerationQueuePage {
  items: ModerationQueueItem[];
  next: string | null;
}

/** Body of `POST /api/admin/moderation/actions`. */
export interface ModerationActionInput {
  itemId: string;
  action: ModerationAction;
  reason?: string;
  /** For ban and shadow_ban: minutes, or null (or absent) for a permanent ban. */
  durationMinutes?: number | null;
}

/** One ban in `GET /api/admin/moderation/bans`. */
export interface ModerationBan {
  userId: string;
  userName: string | null;
  reason: string | null;
  /** ISO 8601, or null for a permanent ban. */
  expires: string | null;
  bannedById: string | null;
  createdAt: string | null;
  shadow: boolean;
}

export interface ModerationBansPage {
  bans: ModerationBan[];
  /** Cursor for the following page, or null on the last one. */
  next: string | null;
}

/** Body of `POST /api/admin/moderation/bans`. */
export interface BanUserInput {
  userId: string;
  reason?: string;
  durationMinutes?: number | null;
  shadow?: boolean;
}

export type BlocklistBehavior = 'flag' | 'block';

export interface ModerationBlocklist {
  name: string;
  words: string[];
}

/** A channel type's blocklist setting. */
export interface ChannelTypeBlocklist {
  type: string;
  blocklist: string | null;
  behavior: BlocklistBehavior | null;
}

/** `GET /api/admin/moderation/blocklists`. */
export interface ModerationBlocklists {
  blocklists: ModerationBlocklist[];
  channelTypes: ChannelTypeBlocklist[];
}

/** A channel's slow mode: `cooldown` seconds between two messages of one member, 0 = off. */
export interface SlowModeChannel {
  cid: string;
  name: string | null;
  cooldown: number;
}

/** `GET /api/admin/moderation/slow-mode`: the sect channels' slow mode. */
export interface SlowModeChannels {
  channels: SlowModeChannel[];
}
