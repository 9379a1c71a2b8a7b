import type {
  ChannelTypeBlocklist,
  ModerationBansPage,
  ModerationBlocklists,
  ModerationQueuePage,
  SlowModeChannel,
  SlowModeChannels,
} from '@daohuu/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Auth } from '../auth/create-auth.ts';
import { staffGate } from '../auth/staff-gate.ts';
import type { ChatApi } from '../chat/chat-api.ts';
import type { Database } from '../db/schema.ts';
import { appError } from '../errors.ts';
import { findUserById } from '../profile/profile-repo.ts';
import { chatCall } from './chat-errors.ts';
import {
  parseBan,
  parseBansQuery,
  parseBlocklist,
  parseChannelTypeBlocklist,
  parseChatId,
  parseModerationAction,
  parseQueueQuery,
  parseSlowMode,
  parseSlowModeQuery,
  parseUnbanQuery,
} from './moderation-input.ts';
import { readQueue, submitAction } from './queue.ts';
import {
  banUser,
  listBans,
  listSlowMode,
  readBlocklists,
  saveBlocklist,
  setChannelTypeBlocklist,
  setSlowMode,
  unbanUser,
} from './settings.ts';

export interface ModerationRoutesOptions {
  auth: Auth;
  db: Kysely<Database>;
  api: ChatApi;
  /** Requests per moderator per minute; reads fan out to several chat calls, writes change what everyone sees. */
  limits?: { reads: number; writes: number };
}

const BODY_LIMIT = 16 * 1024;
/** A full blocklist: 1000 words of up to 100 characters, each up to 4 bytes in UTF-8. */
const BLOCKLIST_BODY_LIMIT = 512 * 1024;
const DEFAULT_LIMITS = { reads: 60, writes: 30 };

/**
 * The moderation screen's API (/quan-tri/kiem-duyet): the product server calls the chat API as the server, with the
 * app secret, so the browser never holds it. Every route needs a signed-in moderator or admin, checked here before
 * anything is parsed, and is rate limited per moderator.
 */
export async function moderationRoutes(
  app: FastifyInstance,
  { auth, db, api, limits = DEFAULT_LIMITS }: ModerationRoutesOptions,
): Promise<void> {
  const moderator = staffGate({ auth, db, roles: ['moderator', 'admin'], limits });

  const chat = () => chatCall(async () => api.server());

  app.get('/api/admin/moderation/queue', async (request, reply): Promise<ModerationQueuePage> => {
    await moderator(request, reply, 'reads');
    return readQueue(await chat(), parseQueueQuery(request.query));
  });

  app.post('/api/admin/moderation/actions', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const { id } = await moderator(request, reply, 'writes');
    await submitAction(await chat(), parseModerationAction(request.body), id);
    return { ok: true };
  });

  app.get('/api/admin/moderation/bans', async (request, reply): Promise<ModerationBansPage> => {
    await moderator(request, reply, 'reads');
    return listBans(await chat(), parseBansQuery(request.query));
  });

  app.post('/api/admin/moderation/bans', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const caller = await moderator(request, reply, 'writes');
    const input = parseBan(request.body);
    if (input.userId === caller.id) throw appError.cannotBanSelf();
    // Only an admin may ban a fellow moderator or an admin (the chat server cannot know product ranks).
    const target = await findUserById(db, input.userId);
    if (target && target.role !== 'user' && caller.role !== 'admin') throw appError.forbidden();
    await banUser(await chat(), input, caller.id);
    return { ok: true };
  });

  app.delete<{ Params: { userId: string } }>(
    '/api/admin/moderation/bans/:userId',
    async (request, reply) => {
      await moderator(request, reply, 'writes');
      const userId = parseChatId(request.params.userId, 'userId');
      const { shadow } = parseUnbanQuery(request.query);
      await unbanUser(await chat(), userId, shadow);
      return { ok: true };
    },
  );

  app.get(
    '/api/admin/moderation/blocklists',
    async (request, reply): Promise<ModerationBlocklists> => {
      await moderator(request, reply, 'reads');
      return readBlocklists(await chat());
    },
  );

  app.put<{ Params: { name: string } }>(
    '/api/admin/moderation/blocklists/:name',
    { bodyLimit: BLOCKLIST_BODY_LIMIT },
    async (request, reply) => {
      await moderator(request, reply, 'writes');
      const name = parseChatId(request.params.name, 'name');
      const { words } = parseBlocklist(request.body);
      await saveBlocklist(await chat(), name, words);
      return { name, words };
    },
  );

  app.put<{ Params: { type: string } }>(
    '/api/admin/moderation/channel-types/:type',
    { bodyLimit: BODY_LIMIT },
    async (request, reply): Promise<ChannelTypeBlocklist> => {
      await moderator(request, reply, 'writes');
      const type = parseChatId(request.params.type, 'type');
      return setChannelTypeBlocklist(await chat(), type, parseChannelTypeBlocklist(request.body));
    },
  );

  app.get('/api/admin/moderation/slow-mode', async (request, reply): Promise<SlowModeChannels> => {
    await moderator(request, reply, 'reads');
    const { cid } = parseSlowModeQuery(request.query);
    return { channels: await listSlowMode(await chat(), cid) };
  });

  app.put(
    '/api/admin/moderation/slow-mode',
    { bodyLimit: BODY_LIMIT },
    async (request, reply): Promise<SlowModeChannel> => {
      await moderator(request, reply, 'writes');
      const { cid, cooldown } = parseSlowMode(request.body);
      return setSlowMode(await chat(), cid, cooldown);
    },
  );
}
