import { banHolds } from '../access/access.ts';
import { compact, parseArray, parseObject } from '../json.ts';
import type { UserWireResponse } from '../wire/types.ts';
import { storedPrivacySettings } from './privacy.ts';
import type { UserRow } from './repo.ts';

/** Stream's UserResponse: custom data flattened at the top level, booleans as booleans, optional keys absent. */
export interface UserResponse {
  id: string;
  role: string;
  name?: string;
  image?: string;
  language: string;
  teams: string[];
  banned: boolean;
  ban_expires?: string;
  online: boolean;
  invisible: boolean;
  created_at: string;
  updated_at: string;
  last_active?: string;
  deactivated_at?: string;
  deleted_at?: string;
  blocked_user_ids: string[];
  [custom: string]: unknown;
}

export function toUserResponse(row: UserRow, online: boolean): UserResponse {
  return compact({
    ...parseObject(row.custom),
    id: row.id,
    role: row.role,
    name: row.name ?? undefined,
    image: row.image ?? undefined,
    language: row.language,
    teams: parseArray(row.teams) as string[],
    banned: banHolds(row.banned, row.ban_expires),
    ban_expires:
      row.ban_expires && banHolds(row.banned, row.ban_expires) ? row.ban_expires : undefined,
    online: online && row.invisible !== 1,
    invisible: row.invisible === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_active: row.last_active ?? undefined,
    deactivated_at: row.deactivated_at ?? undefined,
    deleted_at: row.deleted_at ?? undefined,
    privacy_settings: storedPrivacySettings(row.privacy_settings),
    blocked_user_ids: [],
  }) satisfies UserWireResponse;
}

/** A stand-in for users that have no row (anonymous connections, deleted users). */
export function placeholderUser(id: string, role: string, now: string): UserResponse {
  return {
    id,
    role,
    language: '',
    teams: [],
    banned: false,
    online: false,
    invisible: false,
    created_at: now,
    updated_at: now,
    blocked_user_ids: [],
  } satisfies UserWireResponse;
}
