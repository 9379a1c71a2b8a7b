import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf, queryOf } from '../../../http/params.ts';
import type { RemindersService } from './service.ts';

export function registerReminderRoutes(
  app: FastifyInstance,
  services: { reminders: RemindersService },
): void {
  const { reminders } = services;
  app.post<{ Params: { id: string } }>('/messages/:id/reminders', async (request) =>
    reminders.create(actorOf(request), request.params.id, bodyOf(request.body)),
  );
  app.patch<{ Params: { id: string } }>('/messages/:id/reminders', async (request) =>
    reminders.update(actorOf(request), request.params.id, bodyOf(request.body)),
  );
  app.delete<{ Params: { id: string } }>('/messages/:id/reminders', async (request) =>
    reminders.remove(actorOf(request), request.params.id, queryOf(request.query).user_id),
  );
  app.post('/reminders/query', async (request) =>
    reminders.query(actorOf(request), bodyOf(request.body)),
  );
}
