import type { JsonObject } from '../json.ts';
import { requireServerSide, type Actor } from '../access/access.ts';
import { deleteChannelsNow, startDeleteChannels, type DeleteHow } from './delete-channels.ts';
import {
  deleteOneUser,
  startDeleteUsers,
  type DeleteUserModes,
  type DeleteUsersContext,
} from './delete-users.ts';
import { createTaskRunner, type TaskResponse } from './runner.ts';
import { startChannelBatch, type ChannelBatchRequest } from './channel-batch.ts';

/** What DELETE /users/{id} reads from its query string (client.deleteUser's params). */
export interface DeleteUserParams {
  hard_delete?: boolean;
  mark_messages_deleted?: boolean;
  delete_conversation_channels?: boolean;
}

/** Batch deletes as background tasks, and the tasks' status. Server-side only, as in Stream. */
export interface TasksService {
  get(actor: Actor, id: string): Promise<TaskResponse>;
  deleteChannels(
    actor: Actor,
    cids: string[],
    how: DeleteHow,
  ): Promise<{ task_id: string } | { result: JsonObject }>;
  deleteUsers(
    actor: Actor,
    userIds: string[],
    modes: DeleteUserModes,
  ): Promise<{ task_id: string }>;
  deleteUser(actor: Actor, userId: string, params: DeleteUserParams): Promise<{ user: object }>;
  /** PUT /channels/batch: one operation on every channel a filter matches, in the background. */
  updateChannelsBatch(actor: Actor, request: ChannelBatchRequest): Promise<{ task_id: string }>;
  /** Resolves once the tasks this node started have finished. */
  idle(): Promise<void>;
}

function requireServer(actor: Actor, what: string): void {
  requireServerSide(actor, `${what} is allowed only server-side`);
}

export function createTasksService(ctx: DeleteUsersContext): TasksService {
  const runner = createTaskRunner(ctx.deps);
  return {
    async get(actor, id) {
      requireServer(actor, 'reading a task');
      return runner.get(actor.appId, id);
    },
    async deleteChannels(actor, cids, how) {
      if (!actor.isServer)
        return { result: await deleteChannelsNow(ctx.channels, actor, cids, how) };
      return { task_id: await startDeleteChannels(runner, ctx.channels, actor, cids, how) };
    },
    async deleteUsers(actor, userIds, modes) {
      requireServer(actor, 'deleting users');
      return { task_id: await startDeleteUsers(runner, ctx, actor, userIds, modes) };
    },
    async deleteUser(actor, userId, params) {
      requireServer(actor, 'deleting a user');
      const hard = params.hard_delete === true;
      const modes: DeleteUserModes = {
        user: hard ? 'hard' : 'soft',
        ...(params.mark_messages_deleted || hard ? { messages: hard ? 'hard' : 'soft' } : {}),
        ...(params.delete_conversation_channels ? { conversations: hard ? 'hard' : 'soft' } : {}),
      };
      return { user: await deleteOneUser(ctx, actor, userId, modes) };
    },
    async updateChannelsBatch(actor, request) {
      requireServer(actor, 'updating channels in batch');
      return {
        task_id: await startChannelBatch(runner, ctx.channels, actor, request, ctx.deps.clock),
      };
    },
    idle: () => runner.idle(),
  };
}
