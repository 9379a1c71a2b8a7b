import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import { loose, noFields, optionalString, stringList } from '../../../http/schemas.ts';
import type { MutesService } from './service.ts';

const actingUser = { user_id: optionalString };

/** client.muteUser / unmuteUser: `{target_id | target_ids, timeout? (minutes), user_id?}`. */
const userMuteBody = loose({
  target_id: optionalString,
  target_ids: stringList.nullish(),
  timeout: z.number().nullish(),
  ...actingUser,
});

/** channel.mute / unmute: `{channel_cid | channel_cids, expiration? (ms), user_id?}`. */
const channelMuteBody = loose({
  channel_cid: optionalString,
  channel_cids: stringList.nullish(),
  expiration: z.number().nullish(),
  ...actingUser,
});

export function registerMuteRoutes(app: FastifyInstance, services: { mutes: MutesService }): void {
  const { mutes } = services;
  const routes = [
    ['/moderation/mute', userMuteBody, mutes.muteUser],
    ['/moderation/unmute', userMuteBody, mutes.unmuteUser],
    ['/moderation/mute/channel', channelMuteBody, mutes.muteChannel],
    ['/moderation/unmute/channel', channelMuteBody, mutes.unmuteChannel],
  ] as const;
  for (const [url, body, action] of routes) {
    defineRoute(app, {
      method: 'POST',
      url,
      query: noFields,
      body,
      handler: async ({ body: input }, request) => action.call(mutes, actorOf(request), input),
    });
  }
}
