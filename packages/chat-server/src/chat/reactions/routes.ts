import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context.ts';
import { bodyOf, queryOf } from '../../http/params.ts';
import { chatError } from '../../errors.ts';
import type { ChatServices } from '../services.ts';

function intQuery(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw chatError.input(`${name} must be a non-negative integer`);
  return n;
}

export function registerReactionRoutes(app: FastifyInstance, services: ChatServices): void {
  const { reactions } = services;
  app.post<{ Params: { id: string } }>('/messages/:id/reaction', async (request) =>
    reactions.send(actorOf(request), request.params.id, bodyOf(request.body)),
  );
  app.delete<{ Params: { id: string; type: string } }>(
    '/messages/:id/reaction/:type',
    async (request) =>
      reactions.remove(
        actorOf(request),
        request.params.id,
        request.params.type,
        queryOf(request.query).user_id,
      ),
  );
  app.get<{ Params: { id: string } }>('/messages/:id/reactions', async (request) => {
    const query = queryOf(request.query);
    return reactions.list(
      actorOf(request),
      request.params.id,
      intQuery(query.limit, 10, 'limit'),
      intQuery(query.offset, 0, 'offset'),
    );
  });
  app.post<{ Params: { id: string } }>('/messages/:id/reactions', async (request) =>
    reactions.query(actorOf(request), request.params.id, bodyOf(request.body)),
  );
}
