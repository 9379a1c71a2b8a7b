import type { ChatDeps } from '../deps.ts';
import type { UsersService } from '../users/service.ts';

/** What the app service's use cases (settings.ts, guest.ts) share. */
export interface AppContext {
  deps: ChatDeps;
  users: UsersService;
}
