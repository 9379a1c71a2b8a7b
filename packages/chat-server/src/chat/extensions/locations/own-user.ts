import type { OwnUserPart } from '../../core/extension-points.ts';
import type { LocationsRepo } from './repo.ts';
import { toLocationResponse } from './serialize.ts';

/** `me.active_live_locations`: the client resumes the user's live shares from it after a reconnect. */
export function locationsOwnUserPart(repo: LocationsRepo): OwnUserPart {
  return {
    read: async ({ appId, row, now }) => ({
      active_live_locations: (await repo.activeFor(appId, row.id, now)).map(toLocationResponse),
    }),
    empty: () => ({ active_live_locations: [] }),
  };
}
