import type { WriteQueue } from '../../../db/write-queue.ts';
import type { UserHardDeleted } from '../extension-points.ts';

/** The two columns every per-user table of an extension has, whatever else it holds. */
type OwnedByUser = { app_id: string; user_id: string };

/**
 * A hard-deleted user's own rows in extensions' tables go with them, in one commit: the tables are those whose rows
 * belong to the user alone (their drafts, reminders, poll votes, in-app notifications), named by the composition
 * root. Tables that also hold other people's side of a relation (mutes, blocks, flags) have listeners of their own.
 */
export function forgetOwnRows(writes: WriteQueue, tables: readonly string[]): UserHardDeleted {
  return async ({ appId, userId }) => {
    await writes.run(async (trx) => {
      const owned = trx.withTables<Record<string, OwnedByUser>>();
      for (const table of tables)
        await owned
          .deleteFrom(table)
          .where('app_id', '=', appId)
          .where('user_id', '=', userId)
          .execute();
    });
  };
}
