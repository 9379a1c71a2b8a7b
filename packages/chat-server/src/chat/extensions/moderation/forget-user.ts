import type { WriteQueue } from '../../../db/write-queue.ts';
import type { UserHardDeleted } from '../../core/extension-points.ts';
import type { ModerationTables } from './repo.ts';

/**
 * A hard-deleted user's blocks and flags go with them: those they made and those of them. Review queue items and
 * moderation actions stay, as the moderators' record of what happened.
 */
export function forgetUserInModeration(writes: WriteQueue): UserHardDeleted {
  return async ({ appId, userId }) => {
    await writes.run(async (trx) => {
      const tables = trx.withTables<ModerationTables>();
      await tables
        .deleteFrom('user_blocks')
        .where('app_id', '=', appId)
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('blocked_user_id', '=', userId)]))
        .execute();
      await tables
        .deleteFrom('flags')
        .where('app_id', '=', appId)
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('target_user_id', '=', userId)]))
        .execute();
    });
  };
}
