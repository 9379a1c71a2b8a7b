import { isoFromMicros } from '../../../db/clock.ts';
import { sql } from 'kysely';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChatDeps } from '../deps.ts';
import { isPlainObject } from '../json.ts';
import { compileFilter, jsonListField, type FilterSchema } from '../query/filter.ts';
import { compileSort, parseSort } from '../query/sort.ts';
import type { UsersContext } from './context.ts';
import { toUserResponse, type UserResponse } from './serialize.ts';

/** The users filter (queryUsers), also how campaign segments select their users. */
export function userFilterSchema(
  dialect: ChatDeps['dialect'],
  connectedIds: string[],
): FilterSchema {
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
      // A timed ban lapses by itself: the flag is read against its expiry.
      banned: {
        kind: 'custom',
        build: (op, value) => {
          if ((op !== '$eq' && op !== '$ne') || typeof value !== 'boolean')
            throw chatError.input('banned supports $eq with a boolean');
          const holds = sql<boolean>`(banned = 1 and (ban_expires is null or ban_expires > ${isoFromMicros(Date.now() * 1000)}))`;
          return (op === '$eq') === value ? holds : sql<boolean>`not ${holds}`;
        },
      },
      // The user's teams, a JSON list: $in (any of them) or $eq / $contains (one), as Stream's multi-tenant docs ask.
      teams: jsonListField(dialect, 'teams', { field: 'teams', values: 'team names' }),
      created_at: { kind: 'column', ref: 'created_at', type: 'date' },
      updated_at: { kind: 'column', ref: 'updated_at', type: 'date' },
      last_active: { kind: 'column', ref: 'last_active', type: 'date' },
      deactivated_at: { kind: 'column', ref: 'deactivated_at', type: 'date' },
      online: {
        kind: 'custom',
        build: (op, value) => {
          if (op !== '$eq' || typeof value !== 'boolean')
            throw chatError.input('online supports only $eq with a boolean');
          // Presence lives in memory; an online filter is the list of connected ids. An invisible user reads as
          // offline everywhere (serialize.ts), so the filter must not tell them apart either.
          const list = connectedIds.length ? sql.join(connectedIds.map((id) => sql`${id}`)) : null;
          if (value)
            return list ? sql<boolean>`(id in (${list}) and invisible = 0)` : sql<boolean>`1 = 0`;
          return list ? sql<boolean>`(id not in (${list}) or invisible = 1)` : sql<boolean>`1 = 1`;
        },
      },
    },
  };
}

function sortOf(dialect: ChatDeps['dialect'], sort: unknown) {
  return compileSort(parseSort(sort), {
    dialect,
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
}

function pageOf(payload: { limit?: unknown; offset?: unknown }) {
  const limit = payload.limit === undefined ? 30 : Number(payload.limit);
  const offset = payload.offset === undefined ? 0 : Number(payload.offset);
  if (!Number.isInteger(limit) || limit < 0 || limit > 100)
    throw chatError.input('limit must be between 0 and 100');
  if (!Number.isInteger(offset) || offset < 0 || offset > 1000)
    throw chatError.input('offset must be between 0 and 1000');
  return { limit, offset };
}

/** The cluster-wide online list costs a Redis read: only a filter naming `online` pays for it. */
async function onlineIdsIfFiltered(
  deps: ChatDeps,
  appId: string,
  payload: Record<string, unknown>,
): Promise<string[]> {
  const filter = JSON.stringify(payload.filter_conditions ?? {});
  return filter.includes('"online"') ? deps.presence.onlineUserIds(appId) : [];
}

/** GET /users: filtered, sorted and paged; `presence: true` also follows the found users' presence. */
export function createUserQuery({
  deps,
  repo,
}: UsersContext): (actor: Actor, payload: unknown) => Promise<UserResponse[]> {
  return async (actor, payload) => {
    if (!isPlainObject(payload)) throw chatError.input('payload must be an object');
    const { limit, offset } = pageOf(payload);
    const where = compileFilter(
      payload.filter_conditions ?? {},
      userFilterSchema(deps.dialect, await onlineIdsIfFiltered(deps, actor.appId, payload)),
    );
    const order = sortOf(deps.dialect, payload.sort);
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
    if (payload.presence === true)
      await deps.connections.apply(actor, { op: 'presence', userIds: rows.map((r) => r.id) });
    const online = await deps.presence.onlineAmong(
      actor.appId,
      rows.map((r) => r.id),
    );
    return rows.map((row) => toUserResponse(row, online.has(row.id)));
  };
}
