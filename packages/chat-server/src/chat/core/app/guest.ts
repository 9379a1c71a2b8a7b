import { randomUUID } from 'node:crypto';
import { signUserToken } from '../../../auth/tokens.ts';
import type { AppConfig } from '../../../config.ts';
import { chatError } from '../../../errors.ts';
import { isPlainObject, type JsonObject } from '../json.ts';
import { USER_ID_PATTERN } from '../users/service.ts';
import type { AppContext } from './context.ts';

function insertGuest({ deps, users }: AppContext, appId: string, id: string): Promise<void> {
  const now = deps.clock.now();
  return users.repo.insert({
    app_id: appId,
    id,
    role: 'guest',
    name: null,
    name_search: null,
    image: null,
    language: '',
    teams: '[]',
    custom: '{}',
    invisible: 0,
    banned: 0,
    created_at: now,
    updated_at: now,
    last_active: null,
  });
}

/**
 * Stream's guest ids: `guest-<uuid>-<the id asked for>` (or `guest-<uuid>` when none was asked for). Every guest
 * session is a new user, so a visitor can never take over another session's or a registered user's id.
 */
const GUEST_ID_PREFIX_LENGTH = 'guest-'.length + 36 + 1;

function guestId(wanted: unknown): string {
  const base = `guest-${randomUUID()}`;
  if (wanted === undefined || wanted === null || wanted === '') return base;
  if (
    typeof wanted !== 'string' ||
    !USER_ID_PATTERN.test(wanted) ||
    wanted.length > 255 - GUEST_ID_PREFIX_LENGTH
  )
    throw chatError.input(
      'user.id may only contain letters, numbers, "@", "_" and "-" (max 212 for a guest)',
    );
  return `${base}-${wanted}`;
}

export async function createGuest(
  context: AppContext,
  app: AppConfig,
  body: JsonObject,
): Promise<{ access_token: string; user: JsonObject }> {
  if (!app.guests.enabled) throw chatError.notAllowed('guest users are disabled for this app');
  const input = body.user;
  if (!isPlainObject(input)) throw chatError.input('user is required');
  const id = guestId(input.id);
  await insertGuest(context, app.id, id);
  const { role: _role, ...details } = input;
  const { row } = await context.users.upsertOnConnect(app.id, id, { ...details, id }, 'guest');
  const exp = Math.floor(Date.now() / 1000) + app.guests.tokenTtlSeconds;
  return { access_token: signUserToken(app.secret, id, exp), user: context.users.toResponse(row) };
}
