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
 * Creates the guest's user row under `wanted`, or under a fresh random id when anyone (guest or not) already has
 * it: a visitor must not take over another session's id. The insert itself decides, so two visitors racing for
 * one id cannot both win.
 */
async function claimGuestId(context: AppContext, appId: string, wanted: string): Promise<string> {
  try {
    await insertGuest(context, appId, wanted);
    return wanted;
  } catch (error) {
    if (!(await context.users.repo.get(appId, wanted))) throw error;
  }
  const fresh = `guest-${randomUUID()}`;
  await insertGuest(context, appId, fresh);
  return fresh;
}

export async function createGuest(
  context: AppContext,
  app: AppConfig,
  body: JsonObject,
): Promise<{ access_token: string; user: JsonObject }> {
  if (!app.guests.enabled) throw chatError.notAllowed('guest users are disabled for this app');
  const input = body.user;
  if (!isPlainObject(input)) throw chatError.input('user is required');
  const wanted = typeof input.id === 'string' && input.id ? input.id : `guest-${randomUUID()}`;
  if (!USER_ID_PATTERN.test(wanted))
    throw chatError.input('user id may only contain letters, numbers, "@", "_" and "-"');
  const id = await claimGuestId(context, app.id, wanted);
  const { role: _role, ...details } = input;
  const row = await context.users.upsertOnConnect(app.id, id, { ...details, id }, 'guest');
  const exp = Math.floor(Date.now() / 1000) + app.guests.tokenTtlSeconds;
  return { access_token: signUserToken(app.secret, id, exp), user: context.users.toResponse(row) };
}
