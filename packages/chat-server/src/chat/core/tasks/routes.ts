import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  idParams,
  jsonObject,
  loose,
  noFields,
  optionalBoolean,
  queryValue,
} from '../../../http/schemas.ts';
import {
  BATCH_OPERATIONS,
  MAX_BATCH_MEMBERS,
  NEEDS_MEMBERS,
  type BatchMember,
} from './channel-batch.ts';
import { RESERVED_CHANNEL_KEYS } from '../channels/fields.ts';
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

/** One field of a batch filter: Stream takes `$eq` or `$in` only, never a bare list. */
const batchTarget = z.union(
  [
    z.strictObject({ $eq: z.string().min(1) }),
    z.strictObject({ $in: z.array(z.string().min(1)).min(1).max(1000) }),
  ],
  { error: 'must be {"$eq": value} or {"$in": [values]}' },
);

const batchMember = z.union([
  z.string().min(1),
  z.looseObject({ user_id: z.string().min(1), channel_role: z.string().min(1).optional() }),
]);

/** client.updateChannelsBatch / channelBatchUpdater(): one operation, the channels it applies to, what it needs. */
const updateChannelsBatchBody = loose({
  operation: z.enum(BATCH_OPERATIONS),
  filter: z
    .strictObject({ cids: batchTarget.optional(), types: batchTarget.optional() })
    .refine((f) => f.cids !== undefined || f.types !== undefined, {
      error: 'must name cids or types',
    }),
  members: z.array(batchMember).min(1).max(MAX_BATCH_MEMBERS).optional(),
  data: z
    .strictObject({
      frozen: z.boolean().optional(),
      disabled: z.boolean().optional(),
      custom: jsonObject.optional(),
      team: z.string().optional(),
      config_overrides: jsonObject.optional(),
      auto_translation_enabled: z.boolean().optional(),
      auto_translation_language: z.string().optional(),
    })
    .optional(),
  custom_set: jsonObject.optional(),
  custom_unset: z.array(z.string().min(1)).max(100).optional(),
}).superRefine((body, check) => {
  const { operation } = body;
  const fail = (path: string, message: string) =>
    check.addIssue({ code: 'custom', path: [path], message });
  const dataChange =
    body.data !== undefined || body.custom_set !== undefined || body.custom_unset !== undefined;
  if (operation === 'updateData') {
    if (!dataChange) fail('data', 'updateData needs data, custom_set or custom_unset');
    if (body.data?.custom !== undefined && (body.custom_set || body.custom_unset))
      fail('custom_set', 'cannot be combined with data.custom');
    if (body.members) fail('members', 'updateData takes no members');
    // custom_set and custom_unset name custom data only: a channel field such as `frozen` goes in `data`.
    const keys = [...Object.keys(body.custom_set ?? {}), ...(body.custom_unset ?? [])];
    const field = keys.find((key) => RESERVED_CHANNEL_KEYS.has(key.split('.')[0]!));
    if (field !== undefined)
      fail(
        body.custom_set && field in body.custom_set ? 'custom_set' : 'custom_unset',
        `${field} is not a custom field`,
      );
    return;
  }
  if (dataChange) fail('data', `${operation} takes no data, custom_set or custom_unset`);
  if (NEEDS_MEMBERS.has(operation) && !body.members) fail('members', `${operation} needs members`);
  if (
    operation === 'assignRoles' &&
    body.members?.some((m) => typeof m === 'string' || m.channel_role === undefined)
  )
    fail('members', 'assignRoles needs a channel_role for every member');
});

const valuesOf = (target: { $eq: string } | { $in: string[] } | undefined) =>
  target === undefined ? undefined : '$eq' in target ? [target.$eq] : target.$in;

const memberOf = (m: string | BatchMember): BatchMember =>
  typeof m === 'string' ? { user_id: m } : m;

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
    method: 'PUT',
    url: '/channels/batch',
    query: noFields,
    body: updateChannelsBatchBody,
    handler: async ({ body }, request) =>
      services.tasks.updateChannelsBatch(actorOf(request), {
        operation: body.operation,
        filter: { cids: valuesOf(body.filter.cids), types: valuesOf(body.filter.types) },
        ...(body.members ? { members: body.members.map(memberOf) } : {}),
        ...(body.data ? { data: body.data } : {}),
        ...(body.custom_set ? { custom_set: body.custom_set } : {}),
        ...(body.custom_unset ? { custom_unset: body.custom_unset } : {}),
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
