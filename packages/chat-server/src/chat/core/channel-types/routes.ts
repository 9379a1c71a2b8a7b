import { requireServerSide } from '../access/access.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contextOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import { noFields } from '../../../http/schemas.ts';
import { channelTypeParams, createChannelTypeBody, updateChannelTypeBody } from './schema.ts';
import type { ChannelTypesService } from './service.ts';

/** Channel types are the app's configuration: on Stream only server-side calls (the app secret) read or change them. */
function serverApp(request: FastifyRequest): string {
  const { actor } = contextOf(request);
  requireServerSide(actor, 'only server-side calls can manage channel types');
  return actor.appId;
}

export function registerChannelTypeRoutes(
  app: FastifyInstance,
  services: { channelTypes: ChannelTypesService },
): void {
  const types = services.channelTypes;
  defineRoute(app, {
    method: 'GET',
    url: '/channeltypes',
    query: noFields,
    handler: async (_input, request) => types.list(serverApp(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/channeltypes',
    query: noFields,
    body: createChannelTypeBody,
    handler: async ({ body }, request) => types.create(serverApp(request), body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/channeltypes/:name',
    params: channelTypeParams,
    query: noFields,
    handler: async ({ params }, request) => types.get(serverApp(request), params.name),
  });
  defineRoute(app, {
    method: 'PUT',
    url: '/channeltypes/:name',
    params: channelTypeParams,
    query: noFields,
    body: updateChannelTypeBody,
    handler: async ({ params, body }, request) =>
      types.update(serverApp(request), params.name, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/channeltypes/:name',
    params: channelTypeParams,
    query: noFields,
    handler: async ({ params }, request) => {
      await types.remove(serverApp(request), params.name);
      return {};
    },
  });
}
