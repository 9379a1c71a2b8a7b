import type { Insertable } from 'kysely';
import type { UsersTable } from '../../../db/schema.ts';
import { PATIENT } from '../../../db/write-queue.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import { assertCustomSize } from '../field-rules.ts';
import { isPlainObject, parseObject, type JsonObject } from '../json.ts';
import { userEvent } from '../wire/events.ts';
import type { UsersContext } from './context.ts';
import {
  assertUserId,
  newRow,
  partialPatch,
  privacyPatch,
  readFields,
  type UserFields,
} from './fields.ts';
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
  ): Promise<ConnectedUser>;
  upsertUsers(actor: Actor, users: unknown): Promise<Record<string, UserResponse>>;
  partialUpdateUsers(actor: Actor, updates: unknown): Promise<Record<string, UserResponse>>;
}

/** The user a handshake connects as; `created` when this handshake inserted the row. */
export interface ConnectedUser {
  row: UserRow;
  created: boolean;
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
    ...privacyPatch(fields),
    custom: JSON.stringify(custom),
    last_active: now,
  };
  const changed =
    JSON.stringify(custom) !== existing.custom ||
    (fields.name !== undefined && fields.name !== existing.name) ||
    (fields.image !== undefined && fields.image !== existing.image) ||
    (fields.language !== undefined && fields.language !== existing.language) ||
    (fields.privacySettings !== undefined &&
      privacyPatch(fields).privacy_settings !== existing.privacy_settings);
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

/**
 * Tells the user, their presence followers and the watchers of their channels about the stored row. A connected
 * user who went invisible (or visible again) also looks offline (or online) to presence followers, as on disconnect.
 */
async function publishUpdated(
  context: UsersContext,
  appId: string,
  row: UserRow,
  prior?: UserRow,
): Promise<void> {
  const { deps, repo, events, toResponse } = context;
  await context.forgetRole(appId, row.id, !prior || prior.role !== row.role);
  const user = toResponse(row);
  const event = userEvent('user.updated', deps.clock.now(), { user });
  events.toUser(appId, row.id, event);
  events.toPresenceFollowers(appId, row.id, event);
  if (prior && prior.invisible !== row.invisible && context.isOnline(appId, row.id)) {
    const presence = { type: 'user.presence.changed', user, created_at: deps.clock.now() };
    events.toPresenceFollowers(appId, row.id, presence);
    events.toUser(appId, row.id, presence);
  }
  // Watchers of the user's channels keep member and message authors up to date from it.
  for (const cid of await repo.memberCids(appId, row.id, 1000))
    events.toChannel(appId, cid, { ...event, cid }, { skipUserIds: [row.id] });
}

async function upsertOnConnect(
  context: UsersContext,
  appId: string,
  userId: string,
  details: JsonObject,
  role: string,
): Promise<ConnectedUser> {
  const { deps, repo, rules } = context;
  const fields = readFields(rules.withoutServerOwned(appId, details));
  const now = deps.clock.now();
  const existing = await repo.get(appId, userId);
  // Through the write queue, patiently: a reconnect storm's thousands of handshakes share a few commits instead of
  // one each. The stored row is known from what was written, so it is not read back.
  if (!existing) {
    const row = newRow(appId, userId, fields, role, now);
    row.last_active = now;
    try {
      await deps.writes.run((trx) => repo.insert(row, trx), PATIENT);
    } catch {
      // A concurrent connect created it first: fall through to the update path.
      return upsertOnConnect(context, appId, userId, details, role);
    }
    const created = {
      ban_expires: null,
      deactivated_at: null,
      deleted_at: null,
      ...row,
    } as UserRow;
    return { row: created, created: true };
  }
  const patch = connectPatch(existing, fields, now);
  await deps.writes.run((trx) => repo.update(appId, userId, patch, trx), PATIENT);
  return { row: { ...existing, ...patch }, created: false };
}

/** The row a server-side or client upsert stores for `id`, given the stored one (`prior`). */
function upsertRow(
  { rules }: UsersContext,
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
  const { banned: _ignored, ...base } = newRow(actor.appId, id, fields, prior?.role ?? 'user', now);
  const row: UserUpsert = base;
  if (fields.banned !== undefined) row.banned = fields.banned ? 1 : 0;
  if (prior) row.created_at = prior.created_at;
  return row;
}

/** The entries of an upsert body, each with its id checked and its caller allowed to edit it. */
function readUpsertEntries(actor: Actor, users: unknown): { id: string; fields: UserFields }[] {
  if (!isPlainObject(users)) throw chatError.input('users must be an object keyed by user id');
  const entries = Object.entries(users);
  if (entries.length === 0) throw chatError.input('users must not be empty');
  if (entries.length > MAX_USERS_PER_WRITE)
    throw chatError.input(`at most ${MAX_USERS_PER_WRITE} users can be upserted at once`);
  return entries.map(([key, value]) => {
    if (!isPlainObject(value)) throw chatError.input(`users.${key} must be an object`);
    const id = value.id ?? key;
    assertUserId(id);
    requireEditable(actor, id);
    return { id, fields: readFields(value) };
  });
}

async function upsertUsers(
  context: UsersContext,
  actor: Actor,
  users: unknown,
): Promise<Record<string, UserResponse>> {
  const { deps, repo, toResponse } = context;
  const prepared = readUpsertEntries(actor, users);
  const now = deps.clock.now();
  const existing = await repo.getMany(
    actor.appId,
    prepared.map((p) => p.id),
  );
  const rows = prepared.map((entry) =>
    upsertRow(context, actor, entry, existing.get(entry.id), now),
  );
  await repo.upsertMany(rows);
  const saved = await repo.getMany(
    actor.appId,
    rows.map((r) => r.id),
  );
  const result: Record<string, UserResponse> = {};
  for (const row of saved.values()) {
    result[row.id] = toResponse(row);
    await publishUpdated(context, actor.appId, row, existing.get(row.id));
  }
  return result;
}

async function partialUpdateUsers(
  context: UsersContext,
  actor: Actor,
  updates: unknown,
): Promise<Record<string, UserResponse>> {
  const { deps, repo, rules, toResponse } = context;
  if (!Array.isArray(updates) || updates.length === 0)
    throw chatError.input('users must be a non-empty array');
  if (updates.length > MAX_USERS_PER_WRITE)
    throw chatError.input(`at most ${MAX_USERS_PER_WRITE} users can be updated at once`);
  const now = deps.clock.now();
  // Every update is checked before the first is written, so a refused one leaves all of them unapplied.
  const patches: { id: string; prior: UserRow; patch: Partial<Insertable<UsersTable>> }[] = [];
  for (const update of updates) {
    const { id, set, unset } = readPartialUpdate(update);
    requireEditable(actor, id);
    const row = await repo.get(actor.appId, id);
    if (!row) throw chatError.notFound(`user ${id} does not exist`);
    const fields = readFields(set);
    rules.guard(actor, fields, unset, row);
    patches.push({ id, prior: row, patch: partialPatch(row, fields, unset, now) });
  }
  const result: Record<string, UserResponse> = {};
  for (const { id, prior, patch } of patches) {
    await repo.update(actor.appId, id, patch);
    const saved = (await repo.get(actor.appId, id))!;
    result[id] = toResponse(saved);
    await publishUpdated(context, actor.appId, saved, prior);
  }
  return result;
}

/** Assembles the user writes over the shared users context. */
export function createUserWrites(context: UsersContext): UserWrites {
  return {
    upsertOnConnect: (appId, userId, details, role) =>
      upsertOnConnect(context, appId, userId, details, role),
    upsertUsers: (actor, users) => upsertUsers(context, actor, users),
    partialUpdateUsers: (actor, updates) => partialUpdateUsers(context, actor, updates),
  };
}
