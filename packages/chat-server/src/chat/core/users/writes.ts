import type { Insertable } from 'kysely';
import type { UsersTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import { assertCustomSize } from '../field-rules.ts';
import { isPlainObject, parseObject, type JsonObject } from '../json.ts';
import { userEvent } from '../wire/events.ts';
import type { UsersContext } from './context.ts';
import { assertUserId, newRow, partialPatch, readFields, type UserFields } from './fields.ts';
import type { UserRow, UserUpsert } from './repo.ts';
import type { UserResponse } from './serialize.ts';

const MAX_USERS_PER_WRITE = 100;

export interface UserWrites {
  /** The websocket handshake: create the user or partially update it from `user_details` (role never changes). */
  upsertOnConnect(
    appId: string,
    userId: string,
    details: JsonObject,
    role: string,
  ): Promise<UserRow>;
  upsertUsers(actor: Actor, users: unknown): Promise<Record<string, UserResponse>>;
  partialUpdateUsers(actor: Actor, updates: unknown): Promise<Record<string, UserResponse>>;
}

/** Users update themselves; admins (and the server) may update anyone. */
function requireEditable(actor: Actor, id: string): void {
  if (!actor.isServer && actor.role !== 'admin' && id !== actor.userId)
    throw chatError.notAllowed('users can only update themselves');
}

/** The columns a reconnect writes: only what `user_details` names, and `updated_at` only if something changed. */
function connectPatch(existing: UserRow, fields: UserFields, now: string) {
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
  return changed ? { ...patch, updated_at: now } : patch;
}

/** One entry of a partial update, checked: who may change what is decided before anything is written. */
interface PartialUpdate {
  id: string;
  set: JsonObject;
  unset: string[];
}

function readPartialUpdate(update: unknown): PartialUpdate {
  if (!isPlainObject(update)) throw chatError.input('each update must be an object');
  const { id, set = {}, unset = [] } = update as { id?: unknown; set?: unknown; unset?: unknown };
  assertUserId(id);
  if (!isPlainObject(set)) throw chatError.input('set must be an object');
  if (!Array.isArray(unset) || !unset.every((k) => typeof k === 'string'))
    throw chatError.input('unset must be a list of keys');
  return { id, set, unset: unset as string[] };
}

export function createUserWrites(context: UsersContext): UserWrites {
  const { deps, repo, events, rules, toResponse } = context;

  async function publishUpdated(appId: string, row: UserRow) {
    context.forgetRole(appId, row.id);
    const event = userEvent('user.updated', deps.clock.now(), { user: toResponse(row) });
    events.toUser(appId, row.id, event);
    events.toPresenceFollowers(appId, row.id, event);
    // Watchers of the user's channels keep member and message authors up to date from it.
    for (const cid of await repo.memberCids(appId, row.id, 1000))
      events.toChannel(appId, cid, { ...event, cid }, { skipUserIds: [row.id] });
  }

  async function upsertOnConnect(
    appId: string,
    userId: string,
    details: JsonObject,
    role: string,
  ): Promise<UserRow> {
    const fields = readFields(rules.withoutServerOwned(appId, details));
    const now = deps.clock.now();
    const existing = await repo.get(appId, userId);
    if (!existing) {
      const row = newRow(appId, userId, fields, role, now);
      row.last_active = now;
      try {
        await repo.insert(row);
      } catch {
        // A concurrent connect created it first: fall through to the update path.
        return upsertOnConnect(appId, userId, details, role);
      }
      return (await repo.get(appId, userId))!;
    }
    await repo.update(appId, userId, connectPatch(existing, fields, now));
    return (await repo.get(appId, userId))!;
  }

  /** The row a server-side or client upsert stores for `id`, given the stored one (`prior`). */
  function upsertRow(
    actor: Actor,
    entry: { id: string; fields: UserFields },
    prior: UserRow | undefined,
    now: string,
  ): UserUpsert {
    const { id, fields } = entry;
    rules.guard(actor, fields, [], prior);
    if (!actor.isServer) rules.keep(actor.appId, fields, prior);
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
  }

  return {
    upsertOnConnect,

    async upsertUsers(actor, users) {
      if (!isPlainObject(users)) throw chatError.input('users must be an object keyed by user id');
      const entries = Object.entries(users);
      if (entries.length === 0) throw chatError.input('users must not be empty');
      if (entries.length > MAX_USERS_PER_WRITE)
        throw chatError.input(`at most ${MAX_USERS_PER_WRITE} users can be upserted at once`);
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
      const rows = prepared.map((entry) => upsertRow(actor, entry, existing.get(entry.id), now));
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
      if (updates.length > MAX_USERS_PER_WRITE)
        throw chatError.input(`at most ${MAX_USERS_PER_WRITE} users can be updated at once`);
      const now = deps.clock.now();
      // Every update is checked before the first is written, so a refused one leaves all of them unapplied.
      const patches: { id: string; patch: Partial<Insertable<UsersTable>> }[] = [];
      for (const update of updates) {
        const { id, set, unset } = readPartialUpdate(update);
        requireEditable(actor, id);
        const row = await repo.get(actor.appId, id);
        if (!row) throw chatError.notFound(`user ${id} does not exist`);
        const fields = readFields(set);
        rules.guard(actor, fields, unset, row);
        patches.push({ id, patch: partialPatch(row, fields, unset, now) });
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
  };
}
