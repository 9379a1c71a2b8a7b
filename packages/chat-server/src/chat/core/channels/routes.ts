import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf, payloadOf, queryOf } from '../../../http/params.ts';
import type { ChannelsService } from './service.ts';

interface ChannelParams {
  type: string;
  id: string;
}

export function registerChannelRoutes(
  app: FastifyInstance,
  services: { channels: ChannelsService },
): void {
  registerQueryRoutes(app, services.channels);
  registerUpdateRoutes(app, services.channels);
  registerMembershipRoutes(app, services.channels);
}

/** Reading channels: queryChannels and get-or-create (by id or by members). */
function registerQueryRoutes(app: FastifyInstance, channels: ChannelsService): void {
  app.post('/channels', async (request) => {
    const states = await channels.queryChannels(actorOf(request), bodyOf(request.body));
    return { channels: states };
  });
  app.post<{ Params: { type: string } }>('/channels/:type/query', async (request) =>
    channels.getOrCreate(actorOf(request), request.params.type, undefined, bodyOf(request.body)),
  );
  app.post<{ Params: ChannelParams }>('/channels/:type/:id/query', async (request) =>
    channels.getOrCreate(
      actorOf(request),
      request.params.type,
      request.params.id,
      bodyOf(request.body),
    ),
  );
}

/** Changing a channel: update, partial update, delete, truncate. */
function registerUpdateRoutes(app: FastifyInstance, channels: ChannelsService): void {
  app.post<{ Params: ChannelParams }>('/channels/:type/:id', async (request) =>
    channels.update(actorOf(request), request.params.type, request.params.id, bodyOf(request.body)),
  );
  app.patch<{ Params: ChannelParams }>('/channels/:type/:id', async (request) =>
    channels.updatePartial(
      actorOf(request),
      request.params.type,
      request.params.id,
      bodyOf(request.body),
    ),
  );
  app.delete<{ Params: ChannelParams }>('/channels/:type/:id', async (request) =>
    channels.remove(
      actorOf(request),
      request.params.type,
      request.params.id,
      queryOf(request.query).hard_delete === 'true',
    ),
  );
  app.post<{ Params: ChannelParams }>('/channels/:type/:id/truncate', async (request) =>
    channels.truncate(
      actorOf(request),
      request.params.type,
      request.params.id,
      bodyOf(request.body),
    ),
  );
}

/** One member's own view of a channel and the member list: hide, show, stop watching, member update, query. */
function registerMembershipRoutes(app: FastifyInstance, channels: ChannelsService): void {
  app.post<{ Params: ChannelParams }>('/channels/:type/:id/hide', async (request) => {
    await channels.hide(
      actorOf(request),
      request.params.type,
      request.params.id,
      bodyOf(request.body),
    );
    return {};
  });
  app.post<{ Params: ChannelParams }>('/channels/:type/:id/show', async (request) => {
    await channels.show(
      actorOf(request),
      request.params.type,
      request.params.id,
      bodyOf(request.body),
    );
    return {};
  });
  app.post<{ Params: ChannelParams }>('/channels/:type/:id/stop-watching', async (request) => {
    await channels.stopWatching(actorOf(request), request.params.type, request.params.id);
    return {};
  });
  app.patch<{ Params: ChannelParams }>('/channels/:type/:id/member', async (request) =>
    channels.updateMember(
      actorOf(request),
      request.params.type,
      request.params.id,
      queryOf(request.query).user_id,
      bodyOf(request.body),
    ),
  );
  app.patch<{ Params: ChannelParams & { userId: string } }>(
    '/channels/:type/:id/member/:userId',
    async (request) =>
      channels.updateMember(
        actorOf(request),
        request.params.type,
        request.params.id,
        request.params.userId,
        bodyOf(request.body),
      ),
  );
  app.get('/members', async (request) =>
    channels.queryMembers(actorOf(request), payloadOf(request.query)),
  );
}
