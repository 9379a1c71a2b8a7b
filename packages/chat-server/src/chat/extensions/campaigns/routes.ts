import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import { idParams, noFields } from '../../../http/schemas.ts';
import type { CampaignsExtension } from './service.ts';
import {
  createCampaignBody,
  createSegmentBody,
  getCampaignQuery,
  queryBody,
  segmentTargetsBody,
  startCampaignBody,
  updateCampaignBody,
  updateSegmentBody,
} from './schemas.ts';

const targetParams = z.object({ id: z.string(), target: z.string() });

/** Stream's segment endpoints (client.createSegment … segmentTargetExists); all server-side only. */
function registerSegmentRoutes(app: FastifyInstance, { segments }: CampaignsExtension): void {
  defineRoute(app, {
    method: 'POST',
    url: '/segments',
    query: noFields,
    body: createSegmentBody,
    handler: async ({ body }, request) => segments.create(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/segments/query',
    query: noFields,
    body: queryBody,
    handler: async ({ body }, request) => segments.query(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/segments/:id',
    params: idParams,
    query: noFields,
    handler: async ({ params }, request) => segments.get(actorOf(request), params.id),
  });
  defineRoute(app, {
    method: 'PUT',
    url: '/segments/:id',
    params: idParams,
    query: noFields,
    body: updateSegmentBody,
    handler: async ({ params, body }, request) =>
      segments.update(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/segments/:id',
    params: idParams,
    query: noFields,
    handler: async ({ params }, request) => segments.remove(actorOf(request), params.id),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/segments/:id/addtargets',
    params: idParams,
    query: noFields,
    body: segmentTargetsBody,
    handler: async ({ params, body }, request) =>
      segments.addTargets(actorOf(request), params.id, body.target_ids),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/segments/:id/deletetargets',
    params: idParams,
    query: noFields,
    body: segmentTargetsBody,
    handler: async ({ params, body }, request) =>
      segments.removeTargets(actorOf(request), params.id, body.target_ids),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/segments/:id/targets/query',
    params: idParams,
    query: noFields,
    body: queryBody,
    handler: async ({ params, body }, request) =>
      segments.queryTargets(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/segments/:id/target/:target',
    params: targetParams,
    query: noFields,
    handler: async ({ params }, request) =>
      segments.targetExists(actorOf(request), params.id, params.target),
  });
}

/** Stream's campaign endpoints (client.createCampaign … queryCampaigns); all server-side only. */
function registerCampaignEndpoints(app: FastifyInstance, { campaigns }: CampaignsExtension): void {
  defineRoute(app, {
    method: 'POST',
    url: '/campaigns',
    query: noFields,
    body: createCampaignBody,
    handler: async ({ body }, request) => campaigns.create(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/campaigns/query',
    query: noFields,
    body: queryBody,
    handler: async ({ body }, request) => campaigns.query(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/campaigns/:id',
    params: idParams,
    query: getCampaignQuery,
    handler: async ({ params, query }, request) =>
      campaigns.get(actorOf(request), params.id, Math.min(100, Number(query.limit ?? 25))),
  });
  defineRoute(app, {
    method: 'PUT',
    url: '/campaigns/:id',
    params: idParams,
    query: noFields,
    body: updateCampaignBody,
    handler: async ({ params, body }, request) =>
      campaigns.update(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/campaigns/:id',
    params: idParams,
    query: noFields,
    handler: async ({ params }, request) => campaigns.remove(actorOf(request), params.id),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/campaigns/:id/start',
    params: idParams,
    query: noFields,
    body: startCampaignBody,
    handler: async ({ params, body }, request) =>
      campaigns.start(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/campaigns/:id/stop',
    params: idParams,
    query: noFields,
    body: noFields,
    handler: async ({ params }, request) => campaigns.stop(actorOf(request), params.id),
  });
}

export function registerCampaignRoutes(
  app: FastifyInstance,
  services: { campaigns: CampaignsExtension },
): void {
  registerSegmentRoutes(app, services.campaigns);
  registerCampaignEndpoints(app, services.campaigns);
}
