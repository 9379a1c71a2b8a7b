import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  channelParams,
  jsonObject,
  loose,
  noFields,
  optionalString,
  queryValue,
  stringList,
} from '../../../http/schemas.ts';
import { MAX_DELIVERED_CHANNELS } from './mark-delivered.ts';
import type { ReadsService } from './service.ts';

/** channel.markRead / thread.markAsRead: `{message_id?, thread_id?, user_id?}`. */
const markReadBody = loose({
  message_id: optionalString,
  thread_id: optionalString,
  user_id: optionalString,
});

/** channel.markUnread: from a message, or from a moment. */
const markUnreadBody = markReadBody.extend({ message_timestamp: optionalString });

/** client.markChannelsRead / markAllRead: `{read_by_channel?: {[cid]: messageId}, user_id?}`. */
const markAllReadBody = loose({ read_by_channel: jsonObject.nullish(), user_id: optionalString });

/** client.markChannelsDelivered: `{latest_delivered_messages: [{cid, id}], user_id?}`. */
const markDeliveredBody = loose({
  latest_delivered_messages: z
    .array(loose({ cid: z.string(), id: z.string().min(1) }))
    .max(MAX_DELIVERED_CHANNELS),
  user_id: optionalString,
});

/** client.getUnreadCountBatch: `{user_ids}` (the service checks how many). */
const unreadBatchBody = loose({ user_ids: stringList });

export function registerReadRoutes(app: FastifyInstance, services: { reads: ReadsService }): void {
  const { reads } = services;
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/:id/read',
    params: channelParams,
    query: noFields,
    body: markReadBody,
    handler: async ({ params, body }, request) =>
      reads.markRead(actorOf(request), params.type, params.id, body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/:id/unread',
    params: channelParams,
    query: noFields,
    body: markUnreadBody,
    handler: async ({ params, body }, request) => {
      await reads.markUnread(actorOf(request), params.type, params.id, body);
      return {};
    },
  });
  defineRoute(app, {
    method: 'POST',
    url: '/channels/delivered',
    query: noFields,
    body: markDeliveredBody,
    handler: async ({ body }, request) => {
      await reads.markDelivered(actorOf(request), body.latest_delivered_messages);
      return {};
    },
  });
  defineRoute(app, {
    method: 'POST',
    url: '/channels/read',
    query: noFields,
    body: markAllReadBody,
    handler: async ({ body }, request) => {
      await reads.markAllRead(actorOf(request), body);
      return {};
    },
  });
  defineRoute(app, {
    method: 'GET',
    url: '/unread',
    query: loose({ user_id: queryValue }),
    handler: async ({ query }, request) => reads.unreadCounts(actorOf(request), query.user_id),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/unread_batch',
    query: noFields,
    body: unreadBatchBody,
    handler: async ({ body }, request) => reads.unreadCountsBatch(actorOf(request), body.user_ids),
  });
}
