import { checkDaoHieu, isRole } from '@daohuu/domain';
import type { Role, UserSettings } from '@daohuu/domain';
import { appError } from '../errors.ts';
import type { UserPatch } from './profile-repo.ts';

function asObjectWithOnly(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw appError.invalidBody();
  if (Object.keys(body).some((key) => !allowed.includes(key))) throw appError.invalidBody();
  return body as Record<string, unknown>;
}

/** A whole number a user may hold: 0 to Number.MAX_SAFE_INTEGER; strings, fractions, NaN and negatives are not. */
function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Body of PATCH /api/me: `{ daoHieu }`. */
export function parseOwnProfilePatch(body: unknown): { name: string } {
  const input = asObjectWithOnly(body, ['daoHieu']);
  const check = checkDaoHieu(input.daoHieu);
  if (!check.ok) throw appError.invalidName(check.message);
  return { name: check.name };
}

/** Body of PATCH /api/admin/users/:id: any of `{ tuVi, balance, role }`; the whole body is checked before any write. */
export function parseAdminUserPatch(body: unknown): UserPatch {
  const input = asObjectWithOnly(body, ['tuVi', 'balance', 'role']);
  const patch: UserPatch = {};
  if ('tuVi' in input) {
    if (!isAmount(input.tuVi)) throw appError.invalidTuVi();
    patch.tuVi = input.tuVi;
  }
  if ('balance' in input) {
    if (!isAmount(input.balance)) throw appError.invalidBalance();
    patch.balance = input.balance;
  }
  if ('role' in input) {
    if (!isRole(input.role)) throw appError.invalidRole();
    patch.role = input.role satisfies Role;
  }
  return patch;
}

/** Body of PATCH /api/me/settings: `{ announceBreakthrough: boolean }`, nothing else. */
export function parseUserSettingsPatch(body: unknown): UserSettings {
  const input = asObjectWithOnly(body, ['announceBreakthrough']);
  if (typeof input.announceBreakthrough !== 'boolean') throw appError.invalidBody();
  return { announceBreakthrough: input.announceBreakthrough };
}

export interface UserListQuery {
  query: string;
  limit: number;
  offset: number;
}

export const USER_LIST_DEFAULT_LIMIT = 20;
export const USER_LIST_MAX_LIMIT = 100;
const QUERY_MAX_LENGTH = 100;

function wholeNumberParam(value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw appError.invalidQuery();
  const number = Number(value);
  if (number < min || number > max) throw appError.invalidQuery();
  return number;
}

/** Query of GET /api/admin/users: `query` (substring of đạo hiệu or email), `limit` 1–100 (20), `offset` ≥ 0 (0). */
export function parseUserListQuery(raw: unknown): UserListQuery {
  const params = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const query = params.query ?? '';
  if (typeof query !== 'string' || query.length > QUERY_MAX_LENGTH) throw appError.invalidQuery();
  return {
    query: query.trim(),
    limit: wholeNumberParam(params.limit, USER_LIST_DEFAULT_LIMIT, 1, USER_LIST_MAX_LIMIT),
    offset: wholeNumberParam(params.offset, 0, 0, Number.MAX_SAFE_INTEGER),
  };
}
