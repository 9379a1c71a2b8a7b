import { chatError } from '../../../errors.ts';
import type { OwnUserResponse } from '../../core/users/me.ts';
import { userEvent } from '../../core/wire/events.ts';
import type { MutesContext } from './service.ts';

type MutesEventType = 'notification.mutes_updated' | 'notification.channel_mutes_updated';

async function me(
  { users, buildMe }: MutesContext,
  appId: string,
  userId: string,
): Promise<OwnUserResponse> {
  const row = await users.getRow(appId, userId);
  if (!row) throw chatError.notFound(`user ${userId} does not exist`);
  return buildMe(row);
}

/** Tells all of the user's connections their new `me`, the only way mutes reach the client's state. */
export async function announce(
  context: MutesContext,
  appId: string,
  userId: string,
  type: MutesEventType,
): Promise<OwnUserResponse> {
  const own = await me(context, appId, userId);
  context.events.toUser(appId, userId, userEvent(type, context.deps.clock.now(), { me: own }));
  return own;
}
