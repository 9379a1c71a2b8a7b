import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  channelParams,
  idParams,
  jsonQuery,
  loose,
  messageInput,
  noFields,
  optionalBoolean,
  optionalString,
  pageNumber,
  partialUpdate,
  queryNumeral,
  queryValue,
  sort,
} from '../../../http/schemas.ts';
import type { MessagesService } from './service.ts';

const sendOptions = { skip_enrich_url: optionalBoolean, skip_push: optionalBoolean };

/** channel.sendMessage's pending options (chat/extensions/pending-messages): a flag and string metadata. */
const pendingOptions = {
  pending: optionalBoolean,
  is_pending_message: optionalBoolean,
  pending_message_metadata: z.record(z.string(), z.string()).nullish(),
};

/** channel.sendMessage(message, options) and client.updateMessage(message, userId, options). */
const messageBody = loose({ message: messageInput, ...sendOptions, ...pendingOptions });

/** client.partialUpdateMessage(id, {set, unset}, userId, options). */
const partialMessageBody = loose({
  ...partialUpdate,
  set: messageInput.nullish(),
  user_id: optionalString,
  ...sendOptions,
});

/** channel.getPinnedMessages(options, sort) as `?payload=`. */
const pinnedPayload = loose({ limit: pageNumber, offset: pageNumber, sort });

/** channel.getReplies(parentId, options, sort): paging values arrive as strings, `sort` as JSON. */
const repliesQuery = jsonQuery({ limit: queryNumeral, offset: queryNumeral });

export function registerMessageRoutes(
  app: FastifyInstance,
  services: { messages: MessagesService },
): void {
  registerChannelMessageRoutes(app, services.messages);
  registerMessageByIdRoutes(app, services.messages);
}

/** Routes under a channel: send, fetch by ids, pinned. */
function registerChannelMessageRoutes(app: FastifyInstance, messages: MessagesService): void {
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/:id/message',
    params: channelParams,
    query: noFields,
    body: messageBody,
    handler: async ({ params, body }, request) =>
      messages.send(actorOf(request), params.type, params.id, body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/channels/:type/:id/messages',
    params: channelParams,
    query: loose({ ids: queryValue }),
    handler: async ({ params, query }, request) => {
      const ids = (query.ids ?? '').split(',').filter(Boolean);
      return messages.getMany(actorOf(request), params.type, params.id, ids);
    },
  });
  defineRoute(app, {
    method: 'GET',
    url: '/channels/:type/:id/pinned_messages',
    params: channelParams,
    payload: pinnedPayload,
    handler: async ({ params, payload }, request) =>
      messages.pinned(actorOf(request), params.type, params.id, payload),
  });
}

function registerMessageByIdRoutes(app: FastifyInstance, messages: MessagesService): void {
  defineRoute(app, {
    method: 'GET',
    url: '/messages/:id',
    params: idParams,
    query: noFields,
    handler: async ({ params }, request) => messages.get(actorOf(request), params.id),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/messages/:id',
    params: idParams,
    query: noFields,
    body: messageBody,
    handler: async ({ params, body }, request) =>
      messages.update(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'PUT',
    url: '/messages/:id',
    params: idParams,
    query: noFields,
    body: partialMessageBody,
    handler: async ({ params, body }, request) =>
      messages.partialUpdate(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/messages/:id',
    params: idParams,
    query: loose({ hard: queryValue, delete_for_me: queryValue, deleted_by: queryValue }),
    handler: async ({ params, query }, request) =>
      messages.remove(actorOf(request), params.id, {
        hard: query.hard === 'true',
        deleteForMe: query.delete_for_me === 'true',
        ...(query.deleted_by ? { deletedBy: query.deleted_by } : {}),
      }),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/messages/:id/replies',
    params: idParams,
    query: repliesQuery,
    handler: async ({ params, query }, request) =>
      messages.replies(actorOf(request), params.id, query),
  });
}
