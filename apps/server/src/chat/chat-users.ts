import { isAllowedAvatar } from '@daohuu/domain';
import type { Profile } from '@daohuu/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { UserResponse } from 'stream-chat';
import type { Database } from '../db/schema.ts';
import { toProfile } from '../profile/profile.ts';
import { findUserById } from '../profile/profile-repo.ts';
import type { UserChanges } from '../profile/user-changes.ts';
import type { ChatApi } from './chat-api.ts';
import { ChatNotReadyError } from './chat-api.ts';
import { ensurePublicChannels, joinPublicChannels } from './public-channels.ts';

/**
 * The chat user of a product user: id = product user id, name = đạo hiệu, the product role as the chat role (user,
 * moderator and admin exist on both sides) and the tu vi as the custom field `tu_vi`. An upsert replaces the whole
 * user, so an image removed in the product is removed in chat too. An image stored before the avatar rule existed
 * and outside it is left out rather than shown to every chat reader.
 */
export function toChatUser(profile: Profile, publicUrl: string): UserResponse {
  return {
    id: profile.id,
    name: profile.daoHieu,
    role: profile.role,
    tu_vi: profile.tuVi,
    // Avatars are same-origin paths; chat clients (and the chat server's rule) need an absolute http(s) URL.
    ...(profile.image && isAllowedAvatar(profile.image)
      ? { image: new URL(profile.image, publicUrl).href }
      : {}),
  };
}

/** How many users' sync outcomes are remembered (most recent first to stay). */
const REMEMBERED_USERS = 10_000;

export interface ChatUserSyncOptions {
  api: ChatApi;
  /** PUBLIC_URL: the origin avatar paths are resolved against. */
  publicUrl: string;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
}

/**
 * Keeps chat users in step with product users: upserts the user and makes them a member of the public channels.
 * A user is synced once per process (`ensure`: on sign-in and on every token request) and again whenever their
 * profile changes (`userChanged`, called by the profile and admin handlers and by better-auth's update hook).
 * Failures (chat unreachable, timeouts) are logged and never thrown: the next
 * `ensure` retries, so a chat outage never blocks signing in.
 */
export class ChatUserSync implements UserChanges {
  readonly #api: ChatApi;
  readonly #db: Kysely<Database>;
  readonly #log: FastifyBaseLogger;
  readonly #publicUrl: string;
  /** Per user: the latest sync, in flight or settled with its outcome. Failed syncs are forgotten (retry). */
  readonly #syncs = new Map<string, Promise<boolean>>();
  /** Whether the public channels exist; reset on failure so the next sync tries again. */
  #channels: Promise<void> | undefined;

  constructor({ api, db, log, publicUrl }: ChatUserSyncOptions) {
    this.#api = api;
    this.#publicUrl = publicUrl;
    this.#db = db;
    this.#log = log;
  }

  /** Syncs the user unless that already succeeded in this process. Resolves to whether the chat user is in step. */
  ensure(userId: string): Promise<boolean> {
    return this.#syncs.get(userId) ?? this.#start(userId, Promise.resolve());
  }

  /** A sign-up or sign-in: the chat user must exist and belong to the public channels. */
  userSignedIn(userId: string): Promise<boolean> {
    return this.ensure(userId);
  }

  /** Syncs the user again (after a profile change), once any sync in flight has finished. */
  userChanged(userId: string): Promise<boolean> {
    const previous = this.#syncs.get(userId) ?? Promise.resolve(false);
    return this.#start(userId, previous);
  }

  #start(userId: string, after: Promise<unknown>): Promise<boolean> {
    const sync = after.then(() => this.#sync(userId));
    this.#syncs.delete(userId);
    this.#syncs.set(userId, sync);
    // Forgetting the oldest only costs a redundant sync later; it keeps a long-running process's memory bounded.
    if (this.#syncs.size > REMEMBERED_USERS) {
      const oldest = this.#syncs.keys().next().value;
      if (oldest !== undefined) this.#syncs.delete(oldest);
    }
    void sync.then((ok) => {
      if (!ok && this.#syncs.get(userId) === sync) this.#syncs.delete(userId);
    });
    return sync;
  }

  async #sync(userId: string): Promise<boolean> {
    try {
      const row = await findUserById(this.#db, userId);
      // A deleted user has nothing to sync; true, so nobody retries.
      if (!row) return true;
      const client = this.#api.server();
      await client.upsertUser(toChatUser(toProfile(row), this.#publicUrl));
      this.#channels ??= ensurePublicChannels(client, userId).catch((error: unknown) => {
        this.#channels = undefined;
        throw error;
      });
      await this.#channels;
      await joinPublicChannels(client, userId).catch((error: unknown) => {
        // A public channel deleted in chat since: get-or-create it again on the next sync.
        this.#channels = undefined;
        throw error;
      });
      return true;
    } catch (error) {
      if (error instanceof ChatNotReadyError) {
        this.#log.debug(
          { userId },
          'chat user not synced yet: the chat server is not reachable yet',
        );
      } else {
        this.#log.warn(
          { err: error, userId },
          'chat user sync failed; it is retried on the next chat token',
        );
      }
      return false;
    }
  }
}
