import type { UserRow } from './users/repo.ts';
import type { OwnUserResponse } from './users/me.ts';
import type { UserResponse } from './users/serialize.ts';

/** What an own-user part is given: the user, their public object and the time of the request. */
export interface OwnUserContext {
  appId: string;
  row: UserRow;
  self: UserResponse;
  now: string;
}

/**
 * Fields an extension adds to the signed-in user's own object (`me` of `health.check`, mute events): mutes, blocked
 * users, live locations. Parts run concurrently and their fields are spread over the core's in registration order,
 * so two parts must not fill the same field.
 */
export type OwnUserPart = (context: OwnUserContext) => Promise<Partial<OwnUserResponse>>;

/**
 * The core's extension points. Extensions register here while the composition root (`chat/services.ts`) installs
 * them; nothing is registered after start-up. docs/architecture.md lists every point and its order.
 */
export interface ExtensionPoints {
  ownUser: OwnUserPart[];
}

export function createExtensionPoints(): ExtensionPoints {
  return { ownUser: [] };
}
