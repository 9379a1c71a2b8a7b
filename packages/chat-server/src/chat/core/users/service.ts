import { sql, type Insertable } from 'kysely';
import type { UsersTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import { assertCustomSize, readImageUrl, readLabel } from '../field-rules.ts';
import { isPlainObject, parseArray, parseObject, pickCustom, type JsonObject } from '../json.ts';
import { compileFilter, type FilterSchema } from '../query/filter.ts';
import { compileSort, parseSort } from '../query/sort.ts';
import { createUsersRepo, type UserRow, type UserUpsert, type UsersRepo } from './repo.ts';
import { placeholderUser, toUserResponse, type UserResponse } from './serialize.ts';

/** Keys of a user object that are not custom data; read-only ones are ignored on input. */
const RESERVED = new Set([
  'id',
  'role',
  'name',
  'image',
  'language',
  'teams',
  'banned',
  'invisible',
  'online',
  'created_at',
  'updated_at',
  'last_active',
  'deactivated_at',
  'deleted_at',
  'shadow_banned',
  'anon',
  'revoke_tokens_issued_before',
  'privacy_settings',
  'push_notifications',
  'push_preferences',
  'devices',
  'mutes',
  'channel_mutes',
  'unread_count',
  'total_unread_count',
  'unread_channels',
  'unread_threads',
  'blocked_user_ids',
  'teams_role',
  'avg_response_time',
  'channel_last_read_at',
  'latest_hidden_channels',
]);

export const USER_ID_PATTERN = /^[\w@-]{1,255}$/;
const ROLES = new Set(['user', 'admin', 'moderator', 'guest', 'anonymous']);
/**
 * Built-in fields only server-side calls may change. Stream keeps role management server-side, and teams and bans
 * are the product's decisions: a client token, even an admin's, never grants them.
 */
const SERVER_OWNED = new Set(['role', 'teams', 'banned']);
const MAX_TEAMS = 100;

export function assertUserId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !USER_ID_PATTERN.test(id)) {
    throw chatError.input('user id may only contain letters, numbers, "@", "_" and "-" (max 255)');
  }
}

interface UserFields {
  name?: string | null;
  image?: string | null;
  language?: string;
  teams?: string[];
  role?: string;
  banned?: boolean;
  invisible?: boolean;
  custom: JsonObject;
}

function readTeams(value: unknown): string[] {
  if (!Array.isArray(value) || value.length > MAX_TEAMS)
    throw chatError.input(`user.teams must be a list of at most ${MAX_TEAMS} team names`);
  return value.map((team) => {
    const name = readLabel(team, 'user.teams entry');
    if (name === null) throw chatError.input('user.teams entries must not be empty');
    return name;
  });
}

/** Parses and validates a user object; whether the caller may change each field is decided afterwards. */
function readFields(input: JsonObject): UserFields {
  const fields: UserFields = { custom: pickCustom(input, RESERVED, 'user') };
  if ('name' in input) fields.name = readLabel(input.name, 'user.name');
  if ('image' in input) fields.image = readImageUrl(input.image, 'user.image');
  if (input.language !== undefined && input.language !== null)
    fields.language = readLabel(input.language, 'user.language', 35) ?? '';
  if (input.teams !== undefined && input.teams !== null) fields.teams = readTeams(input.teams);
  if (typeof input.invisible === 'boolean') fields.invisible = input.invisible;
  if (typeof input.banned === 'boolean') fields.banned = input.banned;
  if (input.role !== undefined) {
    if (typeof input.role !== 'string' || !ROLES.has(input.role))
      throw chatError.input(`unknown user role ${String(input.role)}`);
    fields.role = input.role;
  }
  return fields;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export interface UsersService {
  repo: UsersRepo;
  isOnline(appId: string, userId: string): boolean;
  /** Users by id as UserResponse; unknown ids get a placeholder so referencing objects never break. */
  responses(appId: string, ids: Iterable<string>): Promise<Map<string, UserResponse>>;
  response(appId: string, id: string): Promise<UserResponse>;
  toResponse(row: UserRow): UserResponse;
  getRow(appId: string, id: string): Promise<UserRow | undefined>;
  /** The websocket handshake: create the user or partially update it from `user_details` (role never changes). */
  upsertOnConnect(
    appId: string,
    userId: string,
    details: JsonObject,
    role: string,
  ): Promise<UserRow>;
  upsertUsers(actor: Actor, users: unknown): Promise<Record<string, UserResponse>>;
  partialUpdateUsers(actor: Actor, updates: unknown): Promise<Record<string, UserResponse>>;
  queryUsers(actor: Actor, payload: unknown): Promise<UserResponse[]>;
  touchLastActive(appId: string, userId: string): Promise<string>;
  /** The user's global role for access checks ('user' when unknown); cached for a few seconds per node. */
  roleOf(appId: string, userId: string): Promise<string>;
}

const ROLE_TTL_MS = 5000;

export function createUsersService(deps: ChatDeps, events: EventPublisher): UsersService {
  const repo = createUsersRepo(deps.db);
  // Every REST call needs the caller's role; roles change rarely, so a short-lived cache saves a query per call.
  // Local changes drop the entry at once; other nodes see a change within ROLE_TTL_MS.
  const roles = new Map<string, { role: string; until: number }>();
  const isOnline = (appId: string, userId: string) =>
    deps.hub.userConnectionCount(appId, userId) > 0;
  const toResponse = (row: UserRow) => toUserResponse(row, isOnline(row.app_id, row.id));
  const serverOnlyFields = new Map(
    deps.config.apps.map((app) => [app.id, new Set(app.serverOnlyUserFields)]),
  );
  const serverOnlyOf = (appId: string): ReadonlySet<string> =>
    serverOnlyFields.get(appId) ?? new Set();
  const isServerOwned = (appId: string, key: string) =>
    SERVER_OWNED.has(key) || serverOnlyOf(appId).has(key);
  // A client's connect payload is user-controlled and re-sent on every reconnect: fields the product owns (role,
  // teams, ban, and custom ones like tu_vi) are dropped silently there, rather than failing the connection.
  const withoutServerOwned = (appId: string, details: JsonObject): JsonObject =>
    Object.fromEntries(Object.entries(details).filter(([key]) => !isServerOwned(appId, key)));

  /** The server-owned fields a write would change on `existing` (undefined: the user does not exist yet). */
  function serverOwnedChanges(
    appId: string,
    fields: UserFields,
    unset: readonly string[],
    existing: UserRow | undefined,
  ): string[] {
    const changed: string[] = [];
    if (fields.role !== undefined && fields.role !== (existing?.role ?? 'user'))
      changed.push('role');
    if (fields.teams !== undefined && !sameJson(fields.teams, parseArray(existing?.teams)))
      changed.push('teams');
    if (fields.banned !== undefined && fields.banned !== (existing?.banned === 1))
      changed.push('banned');
    const custom = parseObject(existing?.custom);
    for (const key of serverOnlyOf(appId))
      if (key in fields.custom && !sameJson(fields.custom[key], custom[key])) changed.push(key);
    for (const key of unset) if (isServerOwned(appId, key)) changed.push(key);
    return [...new Set(changed)];
  }

  /** Code 17 unless the server is writing, or the write leaves every server-owned field as it is. */
  function guardServerOwned(
    actor: Actor,
    fields: UserFields,
    unset: readonly string[],
    existing: UserRow | undefined,
  ): void {
    if (actor.isServer) return;
    const changed = serverOwnedChanges(actor.appId, fields, unset, existing);
    if (changed.length > 0)
      throw chatError.notAllowed(`${changed.join(', ')} can only be changed server-side`);
  }

  /** A client's upsert replaces the user, but not what only the server may set: those keep their stored values. */
  function keepServerOwned(appId: string, fields: UserFields, existing: UserRow | undefined) {
    if (!existing) return;
    const custom = parseObject(existing.custom);
    for (const key of serverOnlyOf(appId))
      if (!(key in fields.custom) && key in custom) fields.custom[key] = custom[key];
    fields.teams ??= parseArray(existing.teams) as string[];
  }

  /** Users update themselves; admins (and the server) may update anyone. */
  function requireEditable(actor: Actor, id: string): void {
    if (!actor.isServer && actor.role !== 'admin' && id !== actor.userId)
      throw chatError.notAllowed('users can only update themselves');
  }

  function partialPatch(
    row: UserRow,
    fields: UserFields,
    unset: readonly string[],
    now: string,
  ): Partial<Insertable<UsersTable>> {
    const custom = { ...parseObject(row.custom), ...fields.custom };
    for (const key of unset) delete custom[key];
    assertCustomSize(custom, 'user');
    const patch: Partial<Insertable<UsersTable>> = {
      custom: JSON.stringify(custom),
      updated_at: now,
    };
    if (fields.name !== undefined)
      Object.assign(patch, {
        name: fields.name,
        name_search: fields.name?.toLocaleLowerCase() ?? null,
      });
    if (fields.image !== undefined) patch.image = fields.image;
    if (fields.language !== undefined) patch.language = fields.language;
    if (fields.teams !== undefined) patch.teams = JSON.stringify(fields.teams);
    if (fields.invisible !== undefined) patch.invisible = fields.invisible ? 1 : 0;
    if (fields.role !== undefined) patch.role = fields.role;
    if (fields.banned !== undefined) patch.banned = fields.banned ? 1 : 0;
    for (const key of unset) {
      if (key === 'name') Object.assign(patch, { name: null, name_search: null });
      if (key === 'image') patch.image = null;
      if (key === 'teams') patch.teams = '[]';
    }
    return patch;
  }

  async function publishUpdated(appId: string, row: UserRow) {
    roles.delete(`${appId}\n${row.id}`);
    const event = { type: 'user.updated', user: toResponse(row), created_at: deps.clock.now() };
    events.toUser(appId, row.id, event);
    events.toPresenceFollowers(appId, row.id, event);
    // Watchers of the user's channels keep member and message authors up to date from it.
    for (const cid of await repo.memberCids(appId, row.id, 1000))
      events.toChannel(appId, cid, { ...event, cid }, { skipUserIds: [row.id] });
  }

  function newRow(
    appId: string,
    id: string,
    fields: UserFields,
    role: string,
    now: string,
  ): Insertable<UsersTable> {
    return {
      app_id: appId,
      id,
      role: fields.role ?? role,
      name: fields.name ?? null,
      name_search: fields.name ? fields.name.toLocaleLowerCase() : null,
      image: fields.image ?? null,
      language: fields.language ?? '',
      teams: JSON.stringify(fields.teams ?? []),
      custom: JSON.stringify(fields.custom),
      invisible: fields.invisible ? 1 : 0,
      banned: 0,
      created_at: now,
      updated_at: now,
      last_active: null,
    };
  }

  function filterSchema(connectedIds: string[]): FilterSchema {
    const { dialect } = deps;
    return {
      dialect,
      entity: 'users',
      customColumn: 'custom',
      fields: {
        id: { kind: 'column', ref: 'id', type: 'text' },
        role: { kind: 'column', ref: 'role', type: 'text' },
        name: { kind: 'column', ref: 'name_search', type: 'text', lowercased: true },
        image: { kind: 'column', ref: 'image', type: 'text' },
        language: { kind: 'column', ref: 'language', type: 'text' },
        banned: { kind: 'column', ref: 'banned', type: 'boolean' },
        created_at: { kind: 'column', ref: 'created_at', type: 'date' },
        updated_at: { kind: 'column', ref: 'updated_at', type: 'date' },
        last_active: { kind: 'column', ref: 'last_active', type: 'date' },
        deactivated_at: { kind: 'column', ref: 'deactivated_at', type: 'date' },
        online: {
          kind: 'custom',
          build: (op, value) => {
            if (op !== '$eq' || typeof value !== 'boolean')
              throw chatError.input('online supports only $eq with a boolean');
            // Presence lives in memory; an online filter is the list of connected ids on this node.
            const ids = connectedIds;
            const list = ids.length ? sql.join(ids.map((id) => sql`${id}`)) : null;
            if (value) return list ? sql<boolean>`id in (${list})` : sql<boolean>`1 = 0`;
            return list ? sql<boolean>`id not in (${list})` : sql<boolean>`1 = 1`;
          },
        },
      },
    };
  }

  return {
    repo,
    isOnline,
    toResponse,
    getRow: (appId, id) => repo.get(appId, id),
    async responses(appId, ids) {
      const list = [...new Set(ids)];
      const rows = await repo.getMany(appId, list);
      const now = deps.clock.now();
      const map = new Map<string, UserResponse>();
      for (const id of list) {
        const row = rows.get(id);
        map.set(id, row ? toResponse(row) : placeholderUser(id, 'user', now));
      }
      return map;
    },
    async response(appId, id) {
      const row = await repo.get(appId, id);
      return row ? toResponse(row) : placeholderUser(id, 'user', deps.clock.now());
    },

    async upsertOnConnect(appId, userId, details, role) {
      const fields = readFields(withoutServerOwned(appId, details));
      const now = deps.clock.now();
      const existing = await repo.get(appId, userId);
      if (!existing) {
        const row = newRow(appId, userId, fields, role, now);
        row.last_active = now;
        try {
          await repo.insert(row);
        } catch {
          // A concurrent connect created it first: fall through to the update path.
          return this.upsertOnConnect(appId, userId, details, role);
        }
        return (await repo.get(appId, userId))!;
      }
      const custom = { ...parseObject(existing.custom), ...fields.custom };
      assertCustomSize(custom, 'user');
      const patch = {
        ...(fields.name !== undefined
          ? { name: fields.name, name_search: fields.name?.toLocaleLowerCase() ?? null }
          : {}),
        ...(fields.image !== undefined ? { image: fields.image } : {}),
        ...(fields.language !== undefined ? { language: fields.language } : {}),
        ...(fields.invisible !== undefined ? { invisible: fields.invisible ? 1 : 0 } : {}),
        custom: JSON.stringify(custom),
        last_active: now,
      };
      const changed =
        JSON.stringify(custom) !== existing.custom ||
        (fields.name !== undefined && fields.name !== existing.name) ||
        (fields.image !== undefined && fields.image !== existing.image) ||
        (fields.language !== undefined && fields.language !== existing.language);
      await repo.update(appId, userId, changed ? { ...patch, updated_at: now } : patch);
      return (await repo.get(appId, userId))!;
    },

    async upsertUsers(actor, users) {
      if (!isPlainObject(users)) throw chatError.input('users must be an object keyed by user id');
      const entries = Object.entries(users);
      if (entries.length === 0) throw chatError.input('users must not be empty');
      if (entries.length > 100) throw chatError.input('at most 100 users can be upserted at once');
      const now = deps.clock.now();
      const prepared = entries.map(([key, value]) => {
        if (!isPlainObject(value)) throw chatError.input(`users.${key} must be an object`);
        const id = value.id ?? key;
        assertUserId(id);
        requireEditable(actor, id);
        return { id, fields: readFields(value) };
      });
      const existing = await repo.getMany(
        actor.appId,
        prepared.map((p) => p.id),
      );
      const rows = prepared.map(({ id, fields }) => {
        const prior = existing.get(id);
        guardServerOwned(actor, fields, [], prior);
        if (!actor.isServer) keepServerOwned(actor.appId, fields, prior);
        assertCustomSize(fields.custom, 'user');
        // Upsert replaces the user's data, but a missing role keeps the stored one.
        const { banned: _ignored, ...base } = newRow(
          actor.appId,
          id,
          fields,
          prior?.role ?? 'user',
          now,
        );
        const row: UserUpsert = base;
        if (fields.banned !== undefined) row.banned = fields.banned ? 1 : 0;
        if (prior) row.created_at = prior.created_at;
        return row;
      });
      await repo.upsertMany(rows);
      const saved = await repo.getMany(
        actor.appId,
        rows.map((r) => r.id),
      );
      const result: Record<string, UserResponse> = {};
      for (const row of saved.values()) {
        result[row.id] = toResponse(row);
        await publishUpdated(actor.appId, row);
      }
      return result;
    },

    async partialUpdateUsers(actor, updates) {
      if (!Array.isArray(updates) || updates.length === 0)
        throw chatError.input('users must be a non-empty array');
      if (updates.length > 100) throw chatError.input('at most 100 users can be updated at once');
      const now = deps.clock.now();
      // Every update is checked before the first is written, so a refused one leaves all of them unapplied.
      const patches: { id: string; patch: Partial<Insertable<UsersTable>> }[] = [];
      for (const update of updates) {
        if (!isPlainObject(update)) throw chatError.input('each update must be an object');
        const {
          id,
          set = {},
          unset = [],
        } = update as { id?: unknown; set?: unknown; unset?: unknown };
        assertUserId(id);
        if (!isPlainObject(set)) throw chatError.input('set must be an object');
        if (!Array.isArray(unset) || !unset.every((k) => typeof k === 'string'))
          throw chatError.input('unset must be a list of keys');
        requireEditable(actor, id);
        const row = await repo.get(actor.appId, id);
        if (!row) throw chatError.notFound(`user ${id} does not exist`);
        const fields = readFields(set);
        guardServerOwned(actor, fields, unset as string[], row);
        patches.push({ id, patch: partialPatch(row, fields, unset as string[], now) });
      }
      const result: Record<string, UserResponse> = {};
      for (const { id, patch } of patches) {
        await repo.update(actor.appId, id, patch);
        const saved = (await repo.get(actor.appId, id))!;
        result[id] = toResponse(saved);
        await publishUpdated(actor.appId, saved);
      }
      return result;
    },

    async queryUsers(actor, payload) {
      if (!isPlainObject(payload)) throw chatError.input('payload must be an object');
      const limit = payload.limit === undefined ? 30 : Number(payload.limit);
      const offset = payload.offset === undefined ? 0 : Number(payload.offset);
      if (!Number.isInteger(limit) || limit < 0 || limit > 100)
        throw chatError.input('limit must be between 0 and 100');
      if (!Number.isInteger(offset) || offset < 0 || offset > 1000)
        throw chatError.input('offset must be between 0 and 1000');
      const where = compileFilter(
        payload.filter_conditions ?? {},
        filterSchema(deps.hub.connectedUserIds(actor.appId)),
      );
      const order = compileSort(parseSort(payload.sort), {
        dialect: deps.dialect,
        entity: 'users',
        customColumn: 'custom',
        fields: {
          id: sql`id`,
          name: sql`name_search`,
          created_at: sql`created_at`,
          updated_at: sql`updated_at`,
          last_active: sql`last_active`,
          role: sql`role`,
        },
      });
      const includeDeactivated = payload.include_deactivated_users === true;
      const rows = await repo.query(
        actor.appId,
        includeDeactivated
          ? where
          : sql<boolean>`(${where}) and deactivated_at is null and deleted_at is null`,
        order,
        limit,
        offset,
      );
      if (payload.presence === true) {
        const connection = deps.hub.ownConnection(actor.connectionId, actor.appId, actor.userId);
        if (connection)
          deps.hub.followPresence(
            connection,
            rows.map((r) => r.id),
          );
      }
      return rows.map(toResponse);
    },

    async roleOf(appId, userId) {
      const key = `${appId}\n${userId}`;
      const now = Date.now();
      const hit = roles.get(key);
      if (hit && hit.until > now) return hit.role;
      const role = (await repo.get(appId, userId))?.role ?? 'user';
      if (roles.size > 50_000) roles.clear();
      roles.set(key, { role, until: now + ROLE_TTL_MS });
      return role;
    },

    async touchLastActive(appId, userId) {
      const now = deps.clock.now();
      await repo.update(appId, userId, { last_active: now });
      return now;
    },
  };
}
