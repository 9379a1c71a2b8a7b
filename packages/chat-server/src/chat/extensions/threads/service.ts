import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
import type { ThreadsContext } from './context.ts';
import { getThread, queryThreads } from './read.ts';
import { partialUpdateThread } from './update.ts';

export type { ThreadEnricher, ThreadOptions, ThreadsContext } from './context.ts';

export interface ThreadsService {
  query(actor: Actor, body: JsonObject): Promise<{ threads: JsonObject[]; next?: string }>;
  get(actor: Actor, parentId: string, query: JsonObject): Promise<{ thread: JsonObject }>;
  partialUpdate(actor: Actor, parentId: string, body: JsonObject): Promise<{ thread: JsonObject }>;
}

/** Assembles the Threads API from its use cases (read.ts, update.ts), all over one context. */
export function createThreadsService(context: ThreadsContext): ThreadsService {
  return {
    query: (actor, body) => queryThreads(context, actor, body),
    get: (actor, parentId, query) => getThread(context, actor, parentId, query),
    partialUpdate: (actor, parentId, body) => partialUpdateThread(context, actor, parentId, body),
  };
}
