import cors from '@fastify/cors';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import { registerAppRoutes } from './chat/core/app/routes.ts';
import { registerBanRoutes } from './chat/core/bans/routes.ts';
import { registerChannelRoutes } from './chat/core/channels/routes.ts';
import { registerChannelTypeRoutes } from './chat/core/channel-types/routes.ts';
import { registerEventRoutes } from './chat/core/events/routes.ts';
import { registerReactionRoutes } from './chat/core/reactions/routes.ts';
import { registerReadRoutes } from './chat/core/reads/routes.ts';
import { registerSearchRoutes } from './chat/extensions/search/routes.ts';
import { registerThreadRoutes } from './chat/extensions/threads/routes.ts';
import { registerMessageRoutes } from './chat/core/messages/routes.ts';
import { registerLinkPreviewRoutes } from './chat/extensions/link-preview/routes.ts';
import { registerModerationRoutes } from './chat/extensions/moderation/routes.ts';
import { registerMuteRoutes } from './chat/extensions/mutes/routes.ts';
import { registerNotificationRoutes } from './chat/extensions/notifications/routes.ts';
import { registerLocationRoutes } from './chat/extensions/locations/routes.ts';
import { registerReminderRoutes } from './chat/extensions/reminders/routes.ts';
import { registerPendingMessageRoutes } from './chat/extensions/pending-messages/routes.ts';
import { registerPollRoutes } from './chat/extensions/polls/routes.ts';
import { registerDraftRoutes } from './chat/extensions/drafts/routes.ts';
import type { ChatServices } from './chat/services.ts';
import { registerUploadRoutes } from './chat/extensions/uploads/routes.ts';
import { registerUserRoutes } from './chat/core/users/routes.ts';
import { registerTaskRoutes } from './chat/core/tasks/routes.ts';
import { registerCampaignRoutes } from './chat/extensions/campaigns/routes.ts';
import { registerUserGroupRoutes } from './chat/extensions/user-groups/routes.ts';
import { registerPredefinedFilterRoutes } from './chat/extensions/predefined-filters/routes.ts';
import { parseConfig, type ChatServerConfig, type ChatServerConfigInput } from './config.ts';
import { installAuthHook } from './http/auth-hook.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { installJsonBodyParser } from './http/json-body.ts';
import { connectSharedWindows } from './http/rate-limit-redis.ts';
import { installRateLimitHook, RateLimiter } from './http/rate-limit.ts';
import { CLOSE_SERVICE_RESTART } from './realtime/close-codes.ts';
import { registerGateway } from './realtime/gateway.ts';
import { registerLongPoll } from './realtime/longpoll.ts';
import { createChatRuntime, type ChatRuntime } from './runtime.ts';

export interface ChatServerPluginOptions {
  /** Called once the runtime is ready (tests and the product server use it to reach services or wait for readiness). */
  onReady?: (runtime: ChatRuntime) => void;
  /** Sees every chat route as it is registered (the fuzz suite enumerates the endpoints this way). */
  onRoute?: (route: RouteOptions) => void;
}

/** Headers the stream-chat client sends from browsers; preflights must allow them. */
const ALLOWED_HEADERS = [
  'authorization',
  'stream-auth-type',
  'x-stream-client',
  'x-client-request-id',
  'content-type',
];

/** The feature route modules, in one explicit list. */
const ROUTES: ((app: FastifyInstance, services: ChatServices) => void)[] = [
  registerAppRoutes,
  registerUserRoutes,
  registerChannelRoutes,
  registerChannelTypeRoutes,
  registerMessageRoutes,
  registerReactionRoutes,
  registerReadRoutes,
  registerThreadRoutes,
  registerEventRoutes,
  registerMuteRoutes,
  registerModerationRoutes,
  registerBanRoutes,
  registerReminderRoutes,
  registerLocationRoutes,
  registerSearchRoutes,
  registerLinkPreviewRoutes,
  registerPollRoutes,
  registerDraftRoutes,
  registerTaskRoutes,
  registerCampaignRoutes,
  registerNotificationRoutes,
  registerUserGroupRoutes,
  registerPredefinedFilterRoutes,
  registerPendingMessageRoutes,
];

/**
 * The chat server as a Fastify plugin, mountable at any prefix (`app.register(chatServerPlugin(config),
 * { prefix: '/chat' })` gives base URL http://host/chat and websocket ws://host/chat/connect). It owns its
 * database, pub/sub and sockets, and releases them when the Fastify instance closes.
 */
export function chatServerPlugin(
  input: ChatServerConfigInput | ChatServerConfig,
  options: ChatServerPluginOptions = {},
): FastifyPluginAsync {
  const config = parseConfig(input);
  return async (app) => {
    const runtime = await createChatRuntime(config, app.log);
    app.addHook('onClose', () => runtime.close());
    // Registered before @fastify/websocket's own preClose, which closes sockets without a code: clients learn it
    // is a restart (1012) and reconnect, elsewhere behind a load balancer.
    app.addHook('preClose', (done) => {
      runtime.deps.hub.closeAll(CLOSE_SERVICE_RESTART, 'server shutting down');
      done();
    });
    app.addHook('onRoute', (route) => {
      route.bodyLimit ??= config.http.bodyLimitBytes;
      options.onRoute?.(route);
    });
    await app.register(cors, {
      origin: '*',
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowedHeaders: ALLOWED_HEADERS,
      maxAge: 86_400,
      // An OPTIONS request that is not a real preflight gets the usual 204 instead of a plain-text 400.
      strictPreflight: false,
    });
    // A host app may already have registered the websocket plugin (then its options apply).
    if (!app.hasDecorator('websocketServer')) {
      await app.register(websocket, {
        options: { maxPayload: 64 * 1024, perMessageDeflate: false },
      });
    }
    installErrorHandler(app);
    installJsonBodyParser(app);
    // Events caused by a call reach the caller's socket before the call's reply (see Hub.settled).
    app.addHook('onSend', async () => {
      await runtime.deps.hub.settled();
    });
    installAuthHook(app, runtime);
    const shared = await connectSharedWindows(config, app.log);
    if (shared) app.addHook('onClose', async () => shared.close());
    const limiter = new RateLimiter(config.rateLimits, Date.now, shared?.windows);
    installRateLimitHook(app, limiter);
    registerGateway(app, runtime, limiter);
    registerLongPoll(app, runtime, limiter);
    for (const register of ROUTES) register(app, runtime.services);
    registerUploadRoutes(app, runtime.services, {
      ...config.uploads,
      publicBaseURL: config.http.publicBaseURL,
      trustProxy: config.rateLimits.trustProxy,
    });
    options.onReady?.(runtime);
  };
}
