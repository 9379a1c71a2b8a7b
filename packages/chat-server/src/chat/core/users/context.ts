import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { UserRow, UsersRepo } from './repo.ts';
import type { UserResponse } from './serialize.ts';
import type { ServerOwnedRules } from './server-owned.ts';

/** What the parts of the users service (writes, query) share. */
export interface UsersContext {
  deps: ChatDeps;
  repo: UsersRepo;
  events: EventPublisher;
  rules: ServerOwnedRules;
  toResponse(row: UserRow): UserResponse;
  /** Whether the user has a connection (what `online` is made of). */
  isOnline(appId: string, userId: string): boolean;
  /**
   * Drops the cached standing of a user whose row just changed: on this node, and on every node when the role
   * changed (standing-sync.ts).
   */
  forgetRole(appId: string, userId: string, roleChanged: boolean): Promise<void>;
}
