import { sql, type RawBuilder } from 'kysely';
import { normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { JsonObject } from '../json.ts';

/*
 * queryMembers' keyset options (the client's QueryMembersOptions): `user_id_gt` and friends page by user id,
 * `created_at_after` and friends by when the member joined. Each narrows the filter; together they all apply.
 */

const USER_ID_BOUNDS = {
  user_id_gt: sql`>`,
  user_id_gte: sql`>=`,
  user_id_lt: sql`<`,
  user_id_lte: sql`<=`,
} as const;

const CREATED_AT_BOUNDS = {
  created_at_after: sql`>`,
  created_at_after_or_equal: sql`>=`,
  created_at_before: sql`<`,
  created_at_before_or_equal: sql`<=`,
} as const;

export function memberPageConditions(payload: JsonObject): RawBuilder<boolean>[] {
  const conditions: RawBuilder<boolean>[] = [];
  for (const [name, op] of Object.entries(USER_ID_BOUNDS)) {
    const value = payload[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || !value) throw chatError.input(`${name} must be a user id`);
    conditions.push(sql<boolean>`members.user_id ${op} ${value}`);
  }
  for (const [name, op] of Object.entries(CREATED_AT_BOUNDS)) {
    const value = payload[name];
    if (value === undefined || value === null) continue;
    const iso = typeof value === 'string' ? normalizeIso(value) : null;
    if (!iso) throw chatError.input(`${name} must be an RFC 3339 date`);
    conditions.push(sql<boolean>`members.created_at ${op} ${iso}`);
  }
  return conditions;
}
