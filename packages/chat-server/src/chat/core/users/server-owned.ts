import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChatDeps } from '../deps.ts';
import { parseArray, parseObject, type JsonObject } from '../json.ts';
import type { UserFields } from './fields.ts';
import type { UserRow } from './repo.ts';

/**
 * Built-in fields only server-side calls may change. Stream keeps role management server-side, and teams and bans
 * are the product's decisions: a client token, even an admin's, never grants them.
 */
const SERVER_OWNED = new Set(['role', 'teams', 'banned']);

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Which user fields only the server may write: the built-in ones and each app's `serverOnlyUserFields`. */
export interface ServerOwnedRules {
  /** A connect payload without the fields the product owns. */
  withoutServerOwned(appId: string, details: JsonObject): JsonObject;
  /** Code 17 unless the server is writing, or the write leaves every server-owned field as it is. */
  guard(actor: Actor, fields: UserFields, unset: readonly string[], existing?: UserRow): void;
  /** A client's upsert replaces the user, but not what only the server may set: those keep their stored values. */
  keep(appId: string, fields: UserFields, existing: UserRow | undefined): void;
}

export function createServerOwnedRules(config: ChatDeps['config']): ServerOwnedRules {
  const serverOnlyFields = new Map(
    config.apps.map((app) => [app.id, new Set(app.serverOnlyUserFields)]),
  );
  const serverOnlyOf = (appId: string): ReadonlySet<string> =>
    serverOnlyFields.get(appId) ?? new Set();
  const isServerOwned = (appId: string, key: string) =>
    SERVER_OWNED.has(key) || serverOnlyOf(appId).has(key);

  /** The server-owned fields a write would change on `existing` (undefined: the user does not exist yet). */
  function changes(
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

  return {
    // A client's connect payload is user-controlled and re-sent on every reconnect: fields the product owns (role,
    // teams, ban, and custom ones like tu_vi) are dropped silently there, rather than failing the connection.
    withoutServerOwned: (appId, details) =>
      Object.fromEntries(Object.entries(details).filter(([key]) => !isServerOwned(appId, key))),
    guard(actor, fields, unset, existing) {
      if (actor.isServer) return;
      const changed = changes(actor.appId, fields, unset, existing);
      if (changed.length > 0)
        throw chatError.notAllowed(`${changed.join(', ')} can only be changed server-side`);
    },
    keep(appId, fields, existing) {
      if (!existing) return;
      const custom = parseObject(existing.custom);
      for (const key of serverOnlyOf(appId))
        if (!(key in fields.custom) && key in custom) fields.custom[key] = custom[key];
      fields.teams ??= parseArray(existing.teams) as string[];
    },
  };
}
