import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf, payloadOf } from '../../../http/params.ts';
import type { UsersService } from './service.ts';

export function registerUserRoutes(app: FastifyInstance, services: { users: UsersService }): void {
  app.post('/users', async (request) => {
    const users = await services.users.upsertUsers(actorOf(request), bodyOf(request.body).users);
    return { users };
  });
  app.patch('/users', async (request) => {
    const users = await services.users.partialUpdateUsers(
      actorOf(request),
      bodyOf(request.body).users,
    );
    return { users };
  });
  app.get('/users', async (request) => {
    const actor = actorOf(request);
    const payload = payloadOf(request.query);
    const users = await services.users.queryUsers(actor, payload);
    return { users };
  });
}
