import type { ChatDeps } from '../../core/deps.ts';
import type { PollCopier } from '../../core/extension-points.ts';
import type { PollsRepo } from './repo.ts';

/**
 * Copies of a poll for messages sent to many targets (campaigns). A copy keeps the option ids, which are unique per
 * poll, so the same option means the same choice on every copy while each copy counts only its own votes.
 */
export function pollCopier(deps: ChatDeps, repo: PollsRepo): PollCopier {
  return {
    exists: async (appId, pollId) => (await repo.get(deps.db, appId, pollId)) !== undefined,
    async copy({ appId, sourceId, id, createdById }) {
      if (await repo.get(deps.db, appId, id)) return true;
      const source = await repo.get(deps.db, appId, sourceId);
      if (!source) return false;
      const options = await repo.options(deps.db, appId, sourceId);
      const now = deps.clock.now();
      try {
        await deps.writes.run(async (trx) => {
          await repo.insert(trx, {
            ...source,
            id,
            created_by_id: createdById,
            message_id: null,
            cid: null,
            created_at: now,
            updated_at: now,
          });
          for (const option of options)
            await repo.insertOption(trx, {
              ...option,
              poll_id: id,
              created_at: now,
              updated_at: now,
            });
        });
      } catch (error) {
        // Two drivers on one target (a lease take-over) both got here: the other's copy is the one.
        if (await repo.get(deps.db, appId, id)) return true;
        throw error;
      }
      return true;
    },
    async discard(appId, id) {
      await deps.writes.run(async (trx) => {
        const copy = await repo.get(trx, appId, id);
        if (copy && !copy.message_id) await repo.remove(trx, appId, id);
      });
    },
  };
}
