/**
 * The JSON shapes of the product API (docs/product-api.md) as both apps/server and apps/web code against them: the
 * server's handlers return these types and the web app's fetchers read them, so the two cannot drift apart.
 * Types only: nothing here exists at run time.
 */
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
  type: 'livestream';
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
