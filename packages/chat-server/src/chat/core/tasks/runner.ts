import { randomUUID } from 'node:crypto';
import { ChatError, chatError } from '../../../errors.ts';
import type { ChatDeps } from '../deps.ts';
import type { JsonObject } from '../json.ts';
import { createTasksRepo, type TaskRow, type TasksRepo } from './repo.ts';

/** GET /tasks/{id} in Stream's shape (`task_id` is what stream-chat's TaskStatus type reads, `id` the API's). */
export interface TaskResponse {
  id: string;
  task_id: string;
  status: string;
  created_at: string;
  updated_at: string;
  result?: JsonObject;
  error?: { type: string; description: string };
}

/** The work of one task: returns its `result`, or throws to fail it. */
export type TaskWork = () => Promise<JsonObject>;

export interface TaskRunner {
  repo: TasksRepo;
  /** Records a waiting task and runs it after the reply has gone; returns its id at once. */
  start(appId: string, kind: string, params: JsonObject, work: TaskWork): Promise<string>;
  get(appId: string, id: string): Promise<TaskResponse>;
  /** Resolves once every task started on this node has finished (tests and shutdown). */
  idle(): Promise<void>;
}

function toResponse(row: TaskRow): TaskResponse {
  return {
    id: row.id,
    task_id: row.id,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.result ? { result: JSON.parse(row.result) as JsonObject } : {}),
    ...(row.error ? { error: { type: 'task_failed', description: row.error } } : {}),
  };
}

export function createTaskRunner(deps: ChatDeps): TaskRunner {
  const repo = createTasksRepo(deps.db);
  const running = new Set<Promise<void>>();

  async function run(appId: string, id: string, work: TaskWork): Promise<void> {
    if (!(await repo.claim(appId, id, deps.clock.now()))) return;
    try {
      const result = await work();
      await repo.finish(
        appId,
        id,
        { status: 'completed', result: JSON.stringify(result), error: null },
        deps.clock.now(),
      );
    } catch (error) {
      // The task's own caller is gone: the outcome is what GET /tasks/{id} reports, details go to the log.
      deps.log.warn({ err: error, appId, taskId: id }, 'background task failed');
      const message = error instanceof ChatError ? error.message : 'internal error';
      await repo.finish(
        appId,
        id,
        { status: 'failed', result: null, error: message },
        deps.clock.now(),
      );
    }
  }

  return {
    repo,
    async start(appId, kind, params, work) {
      const id = randomUUID();
      const now = deps.clock.now();
      await repo.insert({
        app_id: appId,
        id,
        kind,
        status: 'waiting',
        params: JSON.stringify(params),
        result: null,
        error: null,
        created_at: now,
        updated_at: now,
      });
      const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => run(appId, id, work))
        .catch((error: unknown) => deps.log.error({ err: error, appId }, 'task runner failed'))
        .finally(() => running.delete(done));
      running.add(done);
      return id;
    },
    async get(appId, id) {
      const row = await repo.get(appId, id);
      if (!row) throw chatError.notFound(`task ${id} does not exist`);
      return toResponse(row);
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
