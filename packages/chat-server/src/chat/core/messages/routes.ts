import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf, payloadOf, queryJson, queryOf } from '../../../http/params.ts';
import type { MessagesService } from './service.ts';

interface ChannelParams {
  type: string;
  id: string;
}

export function registerMessageRoutes(
  app: FastifyInstance,
  services: { messages: MessagesService },
): void {
  const { messages } = services;

  app.post<{ Params: ChannelParams }>('/channels/:type/:id/message', async (request) =>
    messages.send(actorOf(request), request.params.type, request.params.id, bodyOf(request.body)),
  );
  app.get<{ Params: ChannelParams }>('/channels/:type/:id/messages', async (request) => {
    const ids = (queryOf(request.query).ids ?? '').split(',').filter(Boolean);
    return messages.getMany(actorOf(request), request.params.type, request.params.id, ids);
  });
  app.get<{ Params: ChannelParams }>('/channels/:type/:id/pinned_messages', async (request) =>
    messages.pinned(
      actorOf(request),
      request.params.type,
      request.params.id,
      payloadOf(request.query),
    ),
  );
  app.get<{ Params: { id: string } }>('/messages/:id', async (request) =>
    messages.get(actorOf(request), request.params.id),
  );
  app.post<{ Params: { id: string } }>('/messages/:id', async (request) =>
    messages.update(actorOf(request), request.params.id, bodyOf(request.body)),
  );
  app.put<{ Params: { id: string } }>('/messages/:id', async (request) =>
    messages.partialUpdate(actorOf(request), request.params.id, bodyOf(request.body)),
  );
  app.delete<{ Params: { id: string } }>('/messages/:id', async (request) => {
    const query = queryOf(request.query);
    return messages.remove(actorOf(request), request.params.id, {
      hard: query.hard === 'true',
      deleteForMe: query.delete_for_me === 'true',
    });
  });
  app.get<{ Params: { id: string } }>('/messages/:id/replies', async (request) =>
    messages.replies(actorOf(request), request.params.id, queryJson(request.query)),
  );
}
