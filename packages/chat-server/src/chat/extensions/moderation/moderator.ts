import { chatError } from '../../../errors.ts';
import { requireServerSide, type Actor } from '../../core/access/access.ts';

/** The review queue is for the app's moderators and admins, and for the server. */
export function requireModerator(actor: Actor, what: string): void {
  if (actor.isServer || actor.role === 'admin' || actor.role === 'moderator') return;
  throw chatError.notAllowed(`only moderators and admins may ${what}`);
}

/** Server-side only, as on Stream (block lists). */
export function requireServer(actor: Actor, what: string): void {
  requireServerSide(actor, `${what} is a server-side only action`);
}

/** Who a moderator action is recorded as: the moderator, or for a server call the `user_id` it names. */
export function actingModerator(actor: Actor, given: unknown): string {
  if (actor.isServer) return typeof given === 'string' && given ? given : '';
  return actor.userId ?? '';
}
