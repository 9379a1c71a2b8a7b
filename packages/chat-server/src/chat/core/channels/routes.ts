import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  channelParams,
  filter,
  jsonObject,
  loose,
  memberList,
  noFields,
  optionalBoolean,
  optionalString,
  pageNumber,
  partialUpdate,
  queryValue,
  sort,
} from '../../../http/schemas.ts';
import type { ChannelsService } from './service.ts';

const flags = { state: optionalBoolean, watch: optionalBoolean, presence: optionalBoolean };
const page = loose({ limit: pageNumber, offset: pageNumber }).nullish();

/** client.queryChannels(filter, sort, options). */
const queryChannelsBody = loose({
  filter_conditions: filter,
  sort,
  ...flags,
  limit: pageNumber,
  offset: pageNumber,
  message_limit: pageNumber,
  member_limit: pageNumber,
  predefined_filter: optionalString,
  filter_values: jsonObject.nullish(),
  sort_values: jsonObject.nullish(),
});

/** channel.query / watch / create: `{data: {members, …custom}, state, watch, presence, messages, members, watchers}`. */
const channelQueryBody = loose({
  data: loose({ members: memberList }).optional(),
  ...flags,
  messages: jsonObject.nullish(),
  members: page,
  watchers: page,
});

/** channel.update and the member/moderator/invite calls, which all POST to the channel. */
const channelUpdateBody = loose({
  data: jsonObject.nullish(),
  message: jsonObject.nullish(),
  add_members: memberList,
  remove_members: memberList,
  add_moderators: memberList,
  demote_moderators: memberList,
  assign_roles: memberList,
  invites: memberList,
  accept_invite: optionalBoolean,
  reject_invite: optionalBoolean,
  hide_history: optionalBoolean,
  hide_history_before: optionalString,
  user_id: optionalString,
});

const truncateBody = loose({
  truncated_at: optionalString,
  hard_delete: optionalBoolean,
  skip_push: optionalBoolean,
  message: jsonObject.nullish(),
  user_id: optionalString,
});

const hideBody = loose({ clear_history: optionalBoolean, user_id: optionalString });
const showBody = loose({ user_id: optionalString });
const partialBody = loose(partialUpdate);

/** client.queryMembers as `?payload=`: the channel by `type` + `id`, or by its `members`. */
const queryMembersPayload = loose({
  type: z.string().optional(),
  id: optionalString,
  members: memberList,
  filter_conditions: filter,
  sort,
  limit: pageNumber,
  offset: pageNumber,
});

export function registerChannelRoutes(
  app: FastifyInstance,
  services: { channels: ChannelsService },
): void {
  registerChannelQueries(app, services.channels);
  registerChannelWrites(app, services.channels);
  registerMembershipRoutes(app, services.channels);
}

function registerChannelQueries(app: FastifyInstance, channels: ChannelsService): void {
  defineRoute(app, {
    method: 'POST',
    url: '/channels',
    query: noFields,
    body: queryChannelsBody,
    handler: async ({ body }, request) => channels.queryChannelsAnswer(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/query',
    params: z.object({ type: z.string() }),
    query: noFields,
    body: channelQueryBody,
    handler: async ({ params, body }, request) =>
      channels.queryAnswer(actorOf(request), params.type, undefined, body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/:id/query',
    params: channelParams,
    query: noFields,
    body: channelQueryBody,
    handler: async ({ params, body }, request) =>
      channels.queryAnswer(actorOf(request), params.type, params.id, body),
  });
}

function registerChannelWrites(app: FastifyInstance, channels: ChannelsService): void {
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/:id',
    params: channelParams,
    query: noFields,
    body: channelUpdateBody,
    handler: async ({ params, body }, request) =>
      channels.update(actorOf(request), params.type, params.id, body),
  });
  defineRoute(app, {
    method: 'PATCH',
    url: '/channels/:type/:id',
    params: channelParams,
    query: noFields,
    body: partialBody,
    handler: async ({ params, body }, request) =>
      channels.updatePartial(actorOf(request), params.type, params.id, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/channels/:type/:id',
    params: channelParams,
    query: loose({ hard_delete: queryValue, skip_truncate: queryValue }),
    handler: async ({ params, query }, request) =>
      channels.remove(
        actorOf(request),
        params.type,
        params.id,
        query.hard_delete === 'true',
        query.skip_truncate === 'true',
      ),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/:id/truncate',
    params: channelParams,
    query: noFields,
    body: truncateBody,
    handler: async ({ params, body }, request) =>
      channels.truncate(actorOf(request), params.type, params.id, body),
  });
}

/** Per-member state: hiding, watching and the member's own fields. */
function registerMembershipRoutes(app: FastifyInstance, channels: ChannelsService): void {
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/:id/hide',
    params: channelParams,
    query: noFields,
    body: hideBody,
    handler: async ({ params, body }, request) => {
      await channels.hide(actorOf(request), params.type, params.id, body);
      return {};
    },
  });
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/:id/show',
    params: channelParams,
    query: noFields,
    body: showBody,
    handler: async ({ params, body }, request) => {
      await channels.show(actorOf(request), params.type, params.id, body);
      return {};
    },
  });
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/:id/stop-watching',
    params: channelParams,
    query: noFields,
    body: noFields,
    handler: async ({ params }, request) => {
      await channels.stopWatching(actorOf(request), params.type, params.id);
      return {};
    },
  });
  defineRoute(app, {
    method: 'PATCH',
    url: '/channels/:type/:id/member',
    params: channelParams,
    query: loose({ user_id: queryValue }),
    body: partialBody,
    handler: async ({ params, query, body }, request) =>
      channels.updateMember(actorOf(request), params.type, params.id, query.user_id, body),
  });
  defineRoute(app, {
    method: 'PATCH',
    url: '/channels/:type/:id/member/:userId',
    params: channelParams.extend({ userId: z.string() }),
    query: noFields,
    body: partialBody,
    handler: async ({ params, body }, request) =>
      channels.updateMember(actorOf(request), params.type, params.id, params.userId, body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/members',
    payload: queryMembersPayload,
    handler: async ({ payload }, request) => channels.queryMembers(actorOf(request), payload),
  });
}
