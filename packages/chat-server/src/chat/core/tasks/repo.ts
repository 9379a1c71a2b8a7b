import type { Selectable } from 'kysely';
import type { Db, TasksTable } from '../../../db/schema.ts';

export type TaskRow = Selectable<TasksTable>;

/** Stream's task states; ours go waiting → running → completed | failed. */
export type TaskStatus = 'waiting' | 'pending' | 'running' | 'completed' | 'failed';

export interface TasksRepo {
  insert(row: TaskRow): Promise<void>;
  get(appId: string, id: string): Promise<TaskRow | undefined>;
  /**
   * Moves a waiting task to running; false when it was not waiting any more. Whoever gets true runs it, so a task
   * is never run twice, even with several nodes looking at the same table.
   */
  claim(appId: string, id: string, now: string): Promise<boolean>;
  finish(
    appId: string,
    id: string,
    outcome: { status: 'completed' | 'failed'; result: string | null; error: string | null },
    now: string,
  ): Promise<void>;
}

export function createTasksRepo(db: Db): TasksRepo {
  return {
    async insert(row) {
      await db.insertInto('tasks').values(row).execute();
    },
    get: (appId, id) =>
      db
        .selectFrom('tasks')
        .selectAll()
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst(),
    async claim(appId, id, now) {
      const result = await db
        .updateTable('tasks')
        .set({ status: 'running', updated_at: now })
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .where('status', '=', 'waiting')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async finish(appId, id, outcome, now) {
      await db
        .updateTable('tasks')
        .set({ ...outcome, updated_at: now })
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .execute();
    },
  };
}
