import type { OwnUserPart } from '../../core/extension-points.ts';
import type { ModerationRepo } from './repo.ts';

/** `me.blocked_user_ids`: the client's blockedUsers starts from this list. */
export function blocksOwnUserPart(repo: ModerationRepo): OwnUserPart {
  return {
    read: async ({ appId, row }) => ({
      blocked_user_ids: (await repo.blocks(appId, row.id)).map((block) => block.blocked_user_id),
    }),
    empty: () => ({ blocked_user_ids: [] }),
  };
}
