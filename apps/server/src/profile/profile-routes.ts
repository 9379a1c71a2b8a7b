import type { Profile, UserSettings, UsersPage } from '@daohuu/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Auth } from '../auth/create-auth.ts';
import { FixedWindowCounter } from '../auth/fixed-window-counter.ts';
import { requireSessionUserId } from '../auth/session.ts';
import type { Database } from '../db/schema.ts';
import { appError } from '../errors.ts';
import { toProfile } from './profile.ts';
import type { UserRow } from './profile.ts';
import {
  parseAdminUserPatch,
  parseOwnProfilePatch,
  parseUserListQuery,
  parseUserSettingsPatch,
} from './profile-input.ts';
import { findUserById, listUsers, updateUser } from './profile-repo.ts';
import type { Breakthroughs } from './breakthroughs.ts';
import type { UserChanges } from './user-changes.ts';
import { readUserSettings, writeUserSettings } from './user-settings.ts';

export interface ProfileRoutesOptions {
  auth: Auth;
  db: Kysely<Database>;
  /** Told of every profile these routes change, before the response is sent. */
  users: Pick<UserChanges, 'userChanged'>;
  /** Told of every tu vi an admin writes, after the chat user is in step. */
  breakthroughs?: Breakthroughs;
}

/**
 * Writes of one's own profile and settings per user per minute: far above a person's pace, low enough that a
 * script cannot turn each write's database row and chat sync into load.
 */
export const OWN_WRITES_PER_MINUTE = 30;

/** Profile and admin bodies are a few small fields. */
const BODY_LIMIT = 16 * 1024;

/**
 * GET/PATCH /api/me and the admin user routes (docs/product-api.md). Access is decided here, through
 * `currentUser` and `currentAdmin`, and nowhere else. Every successful change is announced through
 * `users.userChanged` and awaited, so the chat user is in step when the response arrives.
 */
export async function profileRoutes(
  app: FastifyInstance,
  { auth, db, users, breakthroughs }: ProfileRoutesOptions,
): Promise<void> {
  async function currentUser(request: FastifyRequest, reply: FastifyReply): Promise<UserRow> {
    const userId = await requireSessionUserId(auth, request, reply);
    const user = await findUserById(db, userId);
    if (!user) throw appError.unauthenticated();
    return user;
  }

  const ownWrites = new FixedWindowCounter({ windowMs: 60_000 });

  /** The signed-in user, about to write their own profile or settings, within OWN_WRITES_PER_MINUTE (429). */
  async function currentWriter(request: FastifyRequest, reply: FastifyReply): Promise<UserRow> {
    const user = await currentUser(request, reply);
    if (ownWrites.add(user.id) > OWN_WRITES_PER_MINUTE)
      throw appError.tooManyAttempts(ownWrites.retryAfterSeconds(user.id));
    return user;
  }

  async function currentAdmin(request: FastifyRequest, reply: FastifyReply): Promise<UserRow> {
    const user = await currentUser(request, reply);
    if (user.role !== 'admin') throw appError.forbidden();
    return user;
  }

  app.get('/api/me', async (request, reply): Promise<Profile> =>
    toProfile(await currentUser(request, reply)),
  );

  app.patch('/api/me', { bodyLimit: BODY_LIMIT }, async (request, reply): Promise<Profile> => {
    const user = await currentWriter(request, reply);
    const patch = parseOwnProfilePatch(request.body);
    const updated = await updateUser(db, user.id, patch);
    if (!updated) throw appError.unauthenticated();
    await users.userChanged(updated.id);
    return toProfile(updated);
  });

  app.get('/api/me/settings', async (request, reply): Promise<UserSettings> =>
    readUserSettings(db, (await currentUser(request, reply)).id),
  );

  app.patch(
    '/api/me/settings',
    { bodyLimit: BODY_LIMIT },
    async (request, reply): Promise<UserSettings> => {
      const user = await currentWriter(request, reply);
      return writeUserSettings(db, user.id, parseUserSettingsPatch(request.body));
    },
  );

  app.get('/api/admin/users', async (request, reply): Promise<UsersPage> => {
    await currentAdmin(request, reply);
    const page = await listUsers(db, parseUserListQuery(request.query));
    return { users: page.rows.map(toProfile), total: page.total };
  });

  app.patch<{ Params: { id: string } }>(
    '/api/admin/users/:id',
    { bodyLimit: BODY_LIMIT },
    async (request, reply): Promise<Profile> => {
      const admin = await currentAdmin(request, reply);
      const patch = parseAdminUserPatch(request.body);
      const target = await findUserById(db, request.params.id);
      if (!target) throw appError.userNotFound();
      if (target.id === admin.id && patch.role !== undefined && patch.role !== 'admin') {
        throw appError.cannotRemoveOwnAdmin();
      }
      if (Object.keys(patch).length === 0) return toProfile(target);
      const updated = await updateUser(db, target.id, patch);
      if (!updated) throw appError.userNotFound();
      // An empty patch changes nothing, so only a write is announced (a chat round trip per call otherwise).
      await users.userChanged(updated.id);
      await breakthroughs?.tuViChanged(target, updated);
      return toProfile(updated);
    },
  );
}
