import type { OwnUserPart } from '../../core/extension-points.ts';
import type { LocationsRepo } from './repo.ts';
import { toLocationResponse } from './serialize.ts';

/** `me.active_live_locations`: the client resumes the user's live shares from it after a reconnect. */
export function locationsOwnUserPart(repo: LocationsRepo): OwnUserPart {
  return async ({ appId, row, now }) => ({
    active_live_locations: (await repo.activeFor(appId, row.id, now)).map(toLocationResponse),
  });
}
