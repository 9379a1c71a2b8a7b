import type { FastifyInstance } from 'fastify';
import { chatError } from '../../../errors.ts';
import { contextOf } from '../../../http/context.ts';
import { bodyOf } from '../../../http/params.ts';
import type { AppService } from './service.ts';

export function registerAppRoutes(app: FastifyInstance, services: { app: AppService }): void {
  app.get('/app', async (request) => services.app.settings(contextOf(request).app));
  app.patch('/app', async (request) => {
    const { app: config, actor } = contextOf(request);
    if (!actor.isServer)
      throw chatError.notAllowed('only server-side calls can update app settings');
    await services.app.update(config, bodyOf(request.body));
    return {};
  });
  app.post('/guest', async (request) =>
    services.app.guest(contextOf(request).app, bodyOf(request.body)),
  );
  // stream-chat's warm-up ping.
  app.get('/hi', async () => ({}));
}
