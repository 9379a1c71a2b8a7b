import type { CampaignAudienceCount, CampaignPreview, CampaignProgress } from '@daohuu/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Auth } from '../auth/create-auth.ts';
import { staffGate } from '../auth/staff-gate.ts';
import type { ChatApi } from '../chat/chat-api.ts';
import type { ChatUserSync } from '../chat/chat-users.ts';
import type { Database } from '../db/schema.ts';
import { chatCall } from '../moderation/chat-errors.ts';
import {
  parseAudienceBody,
  parseCampaignId,
  parsePreviewBody,
  parseStartBody,
} from './campaign-input.ts';
import {
  countAudience,
  previewFor,
  readProgress,
  startCampaign,
  stopCampaign,
} from './campaigns.ts';

export interface CampaignRoutesOptions {
  auth: Auth;
  db: Kysely<Database>;
  api: ChatApi;
  /** Makes sure the admin exists as a chat user before sending as them. */
  users: Pick<ChatUserSync, 'ensure'>;
  /** Requests per admin per minute: reads include the progress poll (one a second) and the live count. */
  limits?: { reads: number; writes: number };
}

const BODY_LIMIT = 64 * 1024;
const DEFAULT_LIMITS = { reads: 240, writes: 20 };

/**
 * The campaign screen's API (/quan-tri/chien-dich), admins only: the product server calls the chat server's
 * campaign API as the server, so the browser never holds the secret. The campaign is sent as the admin.
 */
export async function campaignRoutes(
  app: FastifyInstance,
  { auth, db, api, users, limits = DEFAULT_LIMITS }: CampaignRoutesOptions,
): Promise<void> {
  const gate = staffGate({ auth, db, roles: ['admin'], limits });
  const admin = async (...args: Parameters<typeof gate>) => (await gate(...args)).id;

  const chat = () => chatCall(async () => api.server());

  app.post(
    '/api/admin/campaigns/audience',
    { bodyLimit: BODY_LIMIT },
    async (request, reply): Promise<CampaignAudienceCount> => {
      await admin(request, reply, 'reads');
      const { audience } = parseAudienceBody(request.body);
      return { count: await countAudience(db, audience) };
    },
  );

  app.post(
    '/api/admin/campaigns/preview',
    { bodyLimit: BODY_LIMIT },
    async (request, reply): Promise<CampaignPreview> => {
      const senderId = await admin(request, reply, 'reads');
      const input = parsePreviewBody(request.body);
      const client = await chat();
      return chatCall(() => previewFor(client, input, senderId));
    },
  );

  app.post(
    '/api/admin/campaigns',
    { bodyLimit: BODY_LIMIT },
    async (request, reply): Promise<CampaignProgress> => {
      const senderId = await admin(request, reply, 'writes');
      const input = parseStartBody(request.body);
      await users.ensure(senderId);
      const client = await chat();
      return chatCall(() => startCampaign(client, input, senderId));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/admin/campaigns/:id',
    async (request, reply): Promise<CampaignProgress> => {
      await admin(request, reply, 'reads');
      const id = parseCampaignId(request.params.id);
      const client = await chat();
      return chatCall(() => readProgress(client, id));
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/admin/campaigns/:id/stop',
    async (request, reply): Promise<CampaignProgress> => {
      await admin(request, reply, 'writes');
      const id = parseCampaignId(request.params.id);
      const client = await chat();
      return chatCall(() => stopCampaign(client, id));
    },
  );
}
