import { banHolds, type Actor } from '../access/access.ts';
import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { UsersContext } from './context.ts';
import { createUserQuery } from './query.ts';
import { createUsersRepo, type UserRow, type UsersRepo } from './repo.ts';
import { placeholderUser, toUserResponse, type UserResponse } from './serialize.ts';
import { createServerOwnedRules } from './server-owned.ts';
import { createStandingSync } from './standing-sync.ts';
import { createUserWrites, type UserWrites } from './writes.ts';

// Id rules live with the other field rules; the gateway and the app service import them from here.
export { assertUserId, USER_ID_PATTERN } from './fields.ts';

export interface UsersService extends UserWrites {
  repo: UsersRepo;
  isOnline(appId: string, userId: string): boolean;
  /** Users by id as UserResponse; unknown ids get a placeholder so referencing objects never break. */
  responses(appId: string, ids: Iterable<string>): Promise<Map<string, UserResponse>>;
  response(appId: string, id: string): Promise<UserResponse>;
  toResponse(row: UserRow): UserResponse;
  getRow(appId: string, id: string): Promise<UserRow | undefined>;
  queryUsers(actor: Actor, payload: unknown): Promise<UserResponse[]>;
  touchLastActive(appId: string, userId: string): Promise<string>;
  /** The user's global role for access checks ('user' when unknown); cached for a few seconds per node. */
  roleOf(appId: string, userId: string): Promise<string>;
  /** The role and whether an app-wide ban holds now, from the same short-lived cache as `roleOf`. */
  standingOf(appId: string, userId: string): Promise<UserStanding>;
  /** Drops the cached standing after a change (a ban, here or announced by another node: standing-sync.ts). */
  forgetStanding(appId: string, userId: string): void;
  /** Drops the user's cached standing here and on every other node (an app-wide ban or a role changed). */
  standingChanged(appId: string, userId: string): Promise<void>;
  /** Listens for standing changes made on other nodes, for the given apps. */
  start(appIds: readonly string[]): Promise<void>;
  stop(): Promise<void>;
}

/** What access checks need to know about a user beyond one channel. */
export interface UserStanding {
  role: string;
  banned: boolean;
}

/** What the users service needs from the rest of the chat server. */
export interface UsersServiceContext {
  deps: ChatDeps;
  events: EventPublisher;
}

const ROLE_TTL_MS = 5000;
const ROLE_CACHE_LIMIT = 50_000;

export function createUsersService({ deps, events }: UsersServiceContext): UsersService {
  const repo = createUsersRepo(deps.db);
  // Every REST call needs the caller's role; roles change rarely, so a short-lived cache saves a query per call.
  // Local changes drop the entry at once; an app-wide ban or a role change is also dropped on every other node over
  // the bus (standing-sync.ts). ROLE_TTL_MS bounds what a lost announcement can cost.
  const roles = new Map<
    string,
    { role: string; banned: number; banExpires: string | null; until: number }
  >();
  const roleKey = (appId: string, userId: string) => `${appId}\n${userId}`;
  // Counts forgets: a row read before one of them may predate the change it announced, so it is not cached.
  let forgets = 0;
  const forgetStanding = (appId: string, userId: string) => {
    forgets += 1;
    roles.delete(roleKey(appId, userId));
  };
  const standing = createStandingSync({
    pubsub: deps.pubsub,
    log: deps.log,
    users: {
      forgetStanding,
      forgetAllStandings: () => {
        forgets += 1;
        roles.clear();
      },
    },
  });
  const isOnline = (appId: string, userId: string) =>
    deps.hub.userConnectionCount(appId, userId) > 0;
  const toResponse = (row: UserRow) => toUserResponse(row, isOnline(row.app_id, row.id));
  const context: UsersContext = {
    deps,
    repo,
    events,
    rules: createServerOwnedRules(deps.config),
    toResponse,
    isOnline,
    forgetRole: async (appId, userId, roleChanged) => {
      if (roleChanged) await standing.changed(appId, userId);
      else forgetStanding(appId, userId);
    },
  };

  /** Caches the standing `row` holds, unless a forget came after `readAt` (the row may then be outdated). */
  function remember(appId: string, userId: string, row: UserRow | undefined, readAt: number) {
    const entry = {
      role: row?.role ?? 'user',
      banned: row?.banned ?? 0,
      banExpires: row?.ban_expires ?? null,
      until: Date.now() + ROLE_TTL_MS,
    };
    if (forgets !== readAt) return entry;
    if (roles.size > ROLE_CACHE_LIMIT) roles.clear();
    roles.set(roleKey(appId, userId), entry);
    return entry;
  }

  async function cachedStanding(appId: string, userId: string) {
    const hit = roles.get(roleKey(appId, userId));
    if (hit && hit.until > Date.now()) return hit;
    const readAt = forgets;
    return remember(appId, userId, await repo.get(appId, userId), readAt);
  }

  const writes = createUserWrites(context);

  return {
    repo,
    isOnline,
    toResponse,
    ...writes,
    async upsertOnConnect(appId, userId, details, role) {
      const readAt = forgets;
      const connected = await writes.upsertOnConnect(appId, userId, details, role);
      // The handshake just read the row every REST call of the new socket checks first (a watch, in a reconnect
      // storm): its standing is known, so that check needs no second read.
      remember(appId, userId, connected.row, readAt);
      return connected;
    },
    queryUsers: createUserQuery(context),
    getRow: (appId, id) => repo.get(appId, id),
    async responses(appId, ids) {
      const list = [...new Set(ids)];
      const [rows, online] = await Promise.all([
        repo.getMany(appId, list),
        deps.presence.onlineAmong(appId, list),
      ]);
      const now = deps.clock.now();
      const map = new Map<string, UserResponse>();
      for (const id of list) {
        const row = rows.get(id);
        map.set(id, row ? toUserResponse(row, online.has(id)) : placeholderUser(id, 'user', now));
      }
      return map;
    },
    async response(appId, id) {
      const [row, online] = await Promise.all([
        repo.get(appId, id),
        deps.presence.onlineAmong(appId, [id]),
      ]);
      return row
        ? toUserResponse(row, online.has(id))
        : placeholderUser(id, 'user', deps.clock.now());
    },

    async roleOf(appId, userId) {
      return (await cachedStanding(appId, userId)).role;
    },

    async standingOf(appId, userId) {
      const cached = await cachedStanding(appId, userId);
      return {
        role: cached.role,
        banned: banHolds(cached.banned, cached.banExpires, deps.clock.now()),
      };
    },

    forgetStanding,
    standingChanged: (appId, userId) => standing.changed(appId, userId),
    start: (appIds) => standing.start(appIds),
    stop: () => standing.stop(),

    async touchLastActive(appId, userId) {
      const now = deps.clock.now();
      await repo.update(appId, userId, { last_active: now });
      return now;
    },
  };
}
