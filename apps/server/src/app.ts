import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { AuthAttemptLimiter } from './auth/auth-attempt-limiter.ts';
import { authRoutes } from './auth/auth-routes.ts';
import { createAuth } from './auth/create-auth.ts';
import { loadOrCreateAuthSecret } from './auth/secrets.ts';
import { chatRoutes } from './chat/chat-routes.ts';
import { createFirstMessages } from './chat/first-messages.ts';
import { PUBLIC_CHANNELS } from './chat/public-channels.ts';
import type { ChatUserSync } from './chat/chat-users.ts';
import { createChat } from './chat/create-chat.ts';
import { CHAT_PREFIX, frameworkErrorsFor, mountEmbeddedChat } from './chat/embedded-chat.ts';
import type { Config } from './config.ts';
import { registerSearchFunctions } from './db/folded-search.ts';
import { migrateAppTables, openDatabase } from './db/open-database.ts';
import { healthRoutes } from './health/health-routes.ts';
import { installApiRateLimit } from './http/api-rate-limit.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { installRequestLog, loggingOptions } from './http/log-output.ts';
import { assertTrustedOrigin } from './http/origin-check.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { moderationRoutes } from './moderation/moderation-routes.ts';
import { campaignRoutes } from './campaigns/campaign-routes.ts';
import { createBreakthroughs } from './profile/breakthroughs.ts';
import { profileRoutes } from './profile/profile-routes.ts';
import { userSearchRoutes } from './profile/user-search-routes.ts';
import { seedDemoData } from './seed/seed-demo.ts';
import { registerWebApp } from './web/web-app.ts';

/** Fastify takes a hop count at run time but not in its types: the same rule as a function. */
function trustProxyOption(
  config: Config,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  const trust = config.trustProxy;
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * The composition root of the product server: opens the database, sets up auth, registers every route, and returns
 * a ready Fastify instance without listening (tests use `inject` or `listen({ port: 0 })`). It never reads the
 * environment; `config` carries everything. Closing the instance closes the database.
 *
 * Chat needs one more step once the instance listens: `await app.chat.onListening()` (main.ts does it; tests that
 * use chat listen on port 0 and call it), because the product reaches the embedded chat server over HTTP.
 */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  // request.ip is the TCP peer unless TRUST_PROXY names the proxy allowed to say who the client is.
  const app = Fastify({
    ...loggingOptions(config),
    trustProxy: trustProxyOption(config),
    frameworkErrors: frameworkErrorsFor(config.chat.mode === 'embedded'),
  });
  installErrorHandler(app);
  installRequestLog(app);
  // First, so every route registered below, the embedded chat's included, answers with them.
  installSecurityHeaders(app, config);
  installApiRateLimit(app, config.apiRateLimit);

  const database = openDatabase(config.dataDir);
  app.addHook('onClose', async () => database.close());

  try {
    await migrateAppTables(database.db);
    // Chat is created after auth; until then there is no chat user to follow a change.
    const late: { chatUsers?: ChatUserSync } = {};
    const auth = await createAuth({
      sqlite: database.sqlite,
      secret: config.betterAuthSecret ?? loadOrCreateAuthSecret(config.dataDir),
      publicUrl: config.publicUrl,
      log: app.log,
      // better-auth's update-user renames a user without going through our routes: the chat user follows here.
      onUserUpdated: async (userId) => late.chatUsers?.userChanged(userId),
    });
    if (config.seedDemo && (await seedDemoData(auth, database.db))) {
      app.log.info('Seeded the demo admin and demo users (SEED_DEMO=false skips this).');
    }
    registerSearchFunctions(database.sqlite);

    // The product talks to chat only through the stream-chat server client (docs/architecture.md), in both modes.
    const chat = createChat({
      config,
      db: database.db,
      log: app.log,
      address: () => app.server.address(),
    });
    app.decorate('chat', chat);
    late.chatUsers = chat.users;

    await app.register(healthRoutes);
    await app.register(authRoutes, {
      auth,
      limiter: new AuthAttemptLimiter(config.authRateLimit),
      users: chat.users,
    });
    await app.register(async (api) => {
      // better-auth guards /api/auth/* itself; this guards our own cookie-authenticated routes the same way.
      api.addHook('onRequest', async (request) => assertTrustedOrigin(request, config.publicUrl));
      await api.register(profileRoutes, {
        auth,
        db: database.db,
        users: chat.users,
        breakthroughs: createBreakthroughs({
          db: database.db,
          chat: () => chat.api.server(),
          log: app.log,
        }),
      });
      await api.register(chatRoutes, {
        auth,
        api: chat.api,
        users: chat.users,
        mode: chat.mode,
        hostedBaseURL: config.chat.mode === 'hosted' ? (config.chat.baseURL ?? null) : null,
        tokenTtlSeconds: config.chat.tokenTtlSeconds,
        publicUrl: config.publicUrl,
      });
      await api.register(userSearchRoutes, { auth, db: database.db });
      await api.register(moderationRoutes, { auth, db: database.db, api: chat.api });
      await api.register(campaignRoutes, {
        auth,
        db: database.db,
        api: chat.api,
        users: chat.users,
      });
    });

    // Embedded mode: packages/chat-server in this process under /chat; hosted mode: nothing is mounted there.
    if (chat.embedded) await mountEmbeddedChat(app, chat.embedded);

    // Last: it owns the not-found handler, which serves the SPA for every other page.
    await registerWebApp(app, config.webDist, {
      chatPrefix: chat.embedded ? CHAT_PREFIX : undefined,
      chatPageContent: createFirstMessages({
        auth,
        api: chat.api,
        publicChannels: PUBLIC_CHANNELS,
        log: app.log,
      }),
    });
    await app.ready();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
