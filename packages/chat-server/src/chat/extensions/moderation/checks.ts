import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { UserRow } from '../../core/users/repo.ts';
import type { ModerationContext } from './service.ts';

/** Whom the request acts for: a server may name any user, everyone else acts for themselves. */
export function actingUser(actor: Actor, given: unknown, what: string): string {
  const id = actor.isServer && typeof given === 'string' && given ? given : actor.userId;
  if (!id) throw chatError.input('user_id is required');
  if (actor.role === 'anonymous' || actor.role === 'guest')
    throw chatError.notAllowed(`${actor.role} users cannot ${what}`);
  return id;
}

export function requiredId(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 255)
    throw chatError.input(`${name} is required`);
  return value;
}

export async function existingUser(
  { users }: ModerationContext,
  appId: string,
  id: string,
): Promise<UserRow> {
  const row = await users.getRow(appId, id);
  if (!row) throw chatError.notFound(`user ${id} does not exist`);
  return row;
}
