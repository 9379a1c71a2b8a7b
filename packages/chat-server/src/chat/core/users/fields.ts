import type { Insertable } from 'kysely';
import type { UsersTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { assertCustomSize, readImageUrl, readLabel } from '../field-rules.ts';
import { parseObject, pickCustom, type JsonObject } from '../json.ts';
import { readPrivacySettings, type PrivacySettings } from './privacy.ts';
import type { UserRow } from './repo.ts';

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
const MAX_TEAMS = 100;

export function assertUserId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !USER_ID_PATTERN.test(id)) {
    throw chatError.input('user id may only contain letters, numbers, "@", "_" and "-" (max 255)');
  }
}

/** A user object as read from a request: only the fields it names, custom data apart. */
export interface UserFields {
  name?: string | null;
  image?: string | null;
  language?: string;
  teams?: string[];
  role?: string;
  banned?: boolean;
  invisible?: boolean;
  /** null clears the stored settings. */
  privacySettings?: PrivacySettings | null;
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
export function readFields(input: JsonObject): UserFields {
  const fields: UserFields = { custom: pickCustom(input, RESERVED, 'user') };
  if ('name' in input) fields.name = readLabel(input.name, 'user.name');
  if ('image' in input) fields.image = readImageUrl(input.image, 'user.image');
  if (input.language !== undefined && input.language !== null)
    fields.language = readLabel(input.language, 'user.language', 35) ?? '';
  if (input.teams !== undefined && input.teams !== null) fields.teams = readTeams(input.teams);
  if (typeof input.invisible === 'boolean') fields.invisible = input.invisible;
  if (input.privacy_settings !== undefined)
    fields.privacySettings = readPrivacySettings(input.privacy_settings);
  if (typeof input.banned === 'boolean') fields.banned = input.banned;
  if (input.role !== undefined) {
    if (typeof input.role !== 'string' || !ROLES.has(input.role))
      throw chatError.input(`unknown user role ${String(input.role)}`);
    fields.role = input.role;
  }
  return fields;
}

/** The row of a user created from `fields` (`role` when they name none). */
export function newRow(
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
    privacy_settings: privacyColumn(fields.privacySettings),
    banned: 0,
    created_at: now,
    updated_at: now,
    last_active: null,
  };
}

function privacyColumn(settings: PrivacySettings | null | undefined): string | null {
  return settings ? JSON.stringify(settings) : null;
}

/** The column a write stores for `fields`, or undefined when they leave the settings alone. */
export function privacyPatch(fields: UserFields): { privacy_settings?: string | null } {
  return fields.privacySettings === undefined
    ? {}
    : { privacy_settings: privacyColumn(fields.privacySettings) };
}

/** The columns a partial update (`set` as `fields`, then `unset`) writes over `row`. */
export function partialPatch(
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
  Object.assign(patch, privacyPatch(fields));
  if (fields.role !== undefined) patch.role = fields.role;
  if (fields.banned !== undefined) patch.banned = fields.banned ? 1 : 0;
  for (const key of unset) {
    if (key === 'name') Object.assign(patch, { name: null, name_search: null });
    if (key === 'image') patch.image = null;
    if (key === 'teams') patch.teams = '[]';
    if (key === 'privacy_settings') patch.privacy_settings = null;
  }
  return patch;
}
