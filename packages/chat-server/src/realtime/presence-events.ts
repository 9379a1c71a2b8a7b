import type { ChatDeps } from '../chat/core/deps.ts';
import type { UserResponse } from '../chat/core/users/serialize.ts';
import type { ChatServices } from '../chat/services.ts';

/** `user.presence.changed` to the user's presence followers and to the user's own sockets, on every node. */
export async function announcePresence(
  deps: Pick<ChatDeps, 'clock'>,
  services: Pick<ChatServices, 'users' | 'events'>,
  appId: string,
  userId: string,
  /** The user as the event shows them, when the caller has just built it; else read. */
  known?: UserResponse,
): Promise<void> {
  const user = known ?? (await services.users.response(appId, userId));
  const event = { type: 'user.presence.changed', user, created_at: deps.clock.now() };
  services.events.toPresenceFollowers(appId, userId, event);
  services.events.toUser(appId, userId, event);
}

/** A dead node's users went offline when a reaper on this node took its counts back: say so once. */
export function announceReapedPresence(deps: ChatDeps, services: ChatServices): void {
  deps.presence.onReaped(({ offline }) => {
    for (const { appId, userId } of offline) {
      void (async () => {
        await services.users.touchLastActive(appId, userId);
        await announcePresence(deps, services, appId, userId);
      })().catch((error: unknown) =>
        deps.log.warn({ err: error, userId }, 'announcing a reaped user offline failed'),
      );
    }
  });
}
