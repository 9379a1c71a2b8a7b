import type { WriteQueue } from '../../../db/write-queue.ts';
import type { UserHardDeleted } from '../../core/extension-points.ts';

/** A hard-deleted user's mutes go with them: those they made and those of them. */
export function forgetUserMutes(writes: WriteQueue): UserHardDeleted {
  return async ({ appId, userId }) => {
    await writes.run(async (trx) => {
      await trx
        .deleteFrom('user_mutes')
        .where('app_id', '=', appId)
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('target_id', '=', userId)]))
        .execute();
      await trx
        .deleteFrom('channel_mutes')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .execute();
    });
  };
}
