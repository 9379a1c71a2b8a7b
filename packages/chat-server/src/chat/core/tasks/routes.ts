import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import { idParams, loose, noFields, optionalBoolean, queryValue } from '../../../http/schemas.ts';
import { MAX_CHANNELS_PER_DELETE } from './delete-channels.ts';
import { MAX_USERS_PER_DELETE } from './delete-users.ts';
import type { TasksService } from './service.ts';

/** client.deleteChannels(cids, {hard_delete}). */
const deleteChannelsBody = loose({
  cids: z
    .array(z.string().regex(/^[^:]+:.+$/, { error: 'must be a cid such as "messaging:general"' }))
    .min(1)
    .max(MAX_CHANNELS_PER_DELETE),
  hard_delete: optionalBoolean,
  skip_truncate: optionalBoolean,
});

/** client.deleteUsers(user_ids, {user, messages, conversations, new_channel_owner_id}). */
const deleteUsersBody = loose({
  user_ids: z.array(z.string().min(1)).min(1).max(MAX_USERS_PER_DELETE),
  user: z.enum(['soft', 'pruning', 'hard']).nullish(),
  messages: z.enum(['soft', 'pruning', 'hard']).nullish(),
  conversations: z.enum(['soft', 'hard']).nullish(),
  new_channel_owner_id: z.string().min(1).nullish(),
});

/** client.deleteUser(id, params): the params come as query-string values. */
const queryFlag = z.enum(['true', 'false']).optional();
const deleteUserQuery = loose({
  hard_delete: queryFlag,
  mark_messages_deleted: queryFlag,
  delete_conversation_channels: queryFlag,
  user_id: queryValue,
});

/** Drops nulls, so an absent and a null option read the same. */
function present<T>(value: T | null | undefined): T | undefined {
  return value ?? undefined;
}

export function registerTaskRoutes(app: FastifyInstance, services: { tasks: TasksService }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/tasks/:id',
    params: idParams,
    query: noFields,
    handler: async ({ params }, request) => services.tasks.get(actorOf(request), params.id),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/channels/delete',
    query: noFields,
    body: deleteChannelsBody,
    handler: async ({ body }, request) =>
      services.tasks.deleteChannels(actorOf(request), body.cids, {
        hard: body.hard_delete === true,
        keepHistory: body.skip_truncate === true,
      }),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/users/delete',
    query: noFields,
    body: deleteUsersBody,
    handler: async ({ body }, request) =>
      services.tasks.deleteUsers(actorOf(request), body.user_ids, {
        user: present(body.user),
        messages: present(body.messages),
        conversations: present(body.conversations),
        new_channel_owner_id: present(body.new_channel_owner_id),
      }),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/users/:id',
    params: idParams,
    query: deleteUserQuery,
    handler: async ({ params, query }, request) =>
      services.tasks.deleteUser(actorOf(request), params.id, {
        hard_delete: query.hard_delete === 'true',
        mark_messages_deleted: query.mark_messages_deleted === 'true',
        delete_conversation_channels: query.delete_conversation_channels === 'true',
      }),
  });
}
