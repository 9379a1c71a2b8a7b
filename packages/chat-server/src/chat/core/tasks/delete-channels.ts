import { ChatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChannelsService } from '../channels/service.ts';
import type { JsonObject } from '../json.ts';
import type { TaskRunner } from './runner.ts';

/** Stream's limit on one POST /channels/delete. */
export const MAX_CHANNELS_PER_DELETE = 100;

/** The outcome of one item of a batch task, as Stream reports it in the task's `result`. */
export function itemOutcome(error?: unknown): JsonObject {
  if (error === undefined) return { status: 'ok' };
  return {
    status: 'error',
    error: error instanceof ChatError ? error.message : 'internal error',
  };
}

/**
 * client.deleteChannels from a client: each channel deleted now, as that user's channel.delete() would (their own
 * rights on each), with the outcome of each in `result`, as Stream answers a client (no task).
 */
export async function deleteChannelsNow(
  channels: Pick<ChannelsService, 'remove'>,
  actor: Actor,
  cids: string[],
  { hard, keepHistory }: { hard: boolean; keepHistory: boolean },
): Promise<JsonObject> {
  const result: JsonObject = {};
  for (const cid of new Set(cids)) {
    const at = cid.indexOf(':');
    try {
      await channels.remove(actor, cid.slice(0, at), cid.slice(at + 1), hard, keepHistory);
      result[cid] = itemOutcome();
    } catch (error) {
      result[cid] = itemOutcome(error);
    }
  }
  return result;
}

/**
 * client.deleteChannels: every channel deleted as channel.delete() would (events included), in the background. One
 * channel that is missing or fails does not stop the others; the task's result says how each one went.
 */
export async function startDeleteChannels(
  runner: TaskRunner,
  channels: Pick<ChannelsService, 'remove'>,
  actor: Actor,
  cids: string[],
  { hard, keepHistory }: { hard: boolean; keepHistory: boolean },
): Promise<string> {
  const unique = [...new Set(cids)];
  const server: Actor = { ...actor, isServer: true };
  return runner.start(
    actor.appId,
    'delete-channels',
    { cids: unique, hard_delete: hard, skip_truncate: keepHistory },
    async () => {
      const result: JsonObject = {};
      for (const cid of unique) {
        const at = cid.indexOf(':');
        try {
          await channels.remove(server, cid.slice(0, at), cid.slice(at + 1), hard, keepHistory);
          result[cid] = itemOutcome();
        } catch (error) {
          result[cid] = itemOutcome(error);
        }
      }
      return result;
    },
  );
}
