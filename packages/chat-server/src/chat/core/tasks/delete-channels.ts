import { ChatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChannelsService } from '../channels/service.ts';
import type { JsonObject } from '../json.ts';
import { channelKeysOf } from '../wire/events.ts';
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

/** How a bulk delete deletes: for good, or softly keeping the history (Stream's `skip_truncate`). */
export interface DeleteHow {
  hard: boolean;
  keepHistory: boolean;
}

/**
 * Each channel deleted as `actor`'s channel.delete() would (their own rights on each, events included). One that is
 * missing or refused does not stop the others; the result says how each one went.
 */
async function deleteEach(
  channels: Pick<ChannelsService, 'remove'>,
  actor: Actor,
  cids: readonly string[],
  { hard, keepHistory }: DeleteHow,
): Promise<JsonObject> {
  const result: JsonObject = {};
  for (const cid of cids) {
    const { type, id } = channelKeysOf(cid);
    try {
      await channels.remove(actor, type, id, hard, keepHistory);
      result[cid] = itemOutcome();
    } catch (error) {
      result[cid] = itemOutcome(error);
    }
  }
  return result;
}

/** client.deleteChannels from a client: every channel deleted now, the outcomes answered at once, as Stream does. */
export function deleteChannelsNow(
  channels: Pick<ChannelsService, 'remove'>,
  actor: Actor,
  cids: string[],
  how: DeleteHow,
): Promise<JsonObject> {
  return deleteEach(channels, actor, [...new Set(cids)], how);
}

/** client.deleteChannels from the server: deleted in the background, the outcomes in the task's result. */
export async function startDeleteChannels(
  runner: TaskRunner,
  channels: Pick<ChannelsService, 'remove'>,
  actor: Actor,
  cids: string[],
  how: DeleteHow,
): Promise<string> {
  const unique = [...new Set(cids)];
  const server: Actor = { ...actor, isServer: true };
  return runner.start(
    actor.appId,
    'delete-channels',
    { cids: unique, hard_delete: how.hard, skip_truncate: how.keepHistory },
    () => deleteEach(channels, server, unique, how),
  );
}
