import { applyStoredSettings, createAppRegistry, upsertApps, type AppRegistry } from './apps.ts';
import { TokenCache } from './auth/token-cache.ts';
import type { ChatServerConfig } from './config.ts';
import type { ChatDeps, Logger } from './chat/core/deps.ts';
import { createChannelTypeStore } from './chat/core/channel-types/store.ts';
import { createChatServices, type ChatServices } from './chat/services.ts';
import { createClock } from './db/clock.ts';
import { createDb, type DbHandle } from './db/create-db.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createWriteQueue } from './db/write-queue.ts';
import { createMemoryPubSub } from './pubsub/memory.ts';
import { createRedisPubSub } from './pubsub/redis.ts';
import type { PubSub } from './pubsub/pubsub.ts';
import { CLOSE_SERVICE_RESTART, CLOSE_TRY_AGAIN } from './realtime/close-codes.ts';
import { createConnectionRouter } from './realtime/connection-router.ts';
import { Hub } from './realtime/hub.ts';
import { announceReapedPresence } from './realtime/presence-events.ts';
import { createPresenceStore } from './realtime/presence-wiring.ts';

/** Everything one chat-server instance holds; built by `createChatRuntime`, torn down by `close`. */
export interface ChatRuntime {
  deps: ChatDeps;
  services: ChatServices;
  apps: AppRegistry;
  tokens: TokenCache;
  close(): Promise<void>;
}

/** The one switch on the pub/sub kind. */
async function createPubSub(config: ChatServerConfig['pubsub'], log: Logger): Promise<PubSub> {
  switch (config.kind) {
    case 'memory':
      return createMemoryPubSub();
    case 'redis':
      return createRedisPubSub({ url: config.url, keyPrefix: config.keyPrefix, log });
  }
}

/**
 * Migrations may build indexes on big tables for minutes: on PostgreSQL they get a connection of their own without
 * the statement timeout that bounds request queries.
 */
async function migrate(config: ChatServerConfig['db'], handle: DbHandle, log: Logger) {
  if (config.kind !== 'postgres' || config.statementTimeoutMs === 0) {
    await migrateToLatest(handle.db, handle.kind);
    return;
  }
  const unbounded = createDb({ ...config, poolSize: 1, statementTimeoutMs: 0 }, log);
  try {
    await migrateToLatest(unbounded.db, unbounded.kind);
  } finally {
    await unbounded.close();
  }
}

/** Composition root: opens the database, migrates, registers apps and wires the services. */
export async function createChatRuntime(
  config: ChatServerConfig,
  log: Logger,
): Promise<ChatRuntime> {
  const handle = createDb(config.db, log);
  try {
    await migrate(config.db, handle, log);
    const clock = createClock();
    await upsertApps(handle.db, config.apps, clock.now());
    for (const app of await applyStoredSettings(handle.db, config.apps))
      log.warn(
        { app: app.id },
        `AUTH CHECKS ARE DISABLED for app ${app.id}: unsigned development tokens are accepted, so anyone can connect as any user. Never run this in production.`,
      );
    const pubsub = await createPubSub(config.pubsub, log);
    const hub = new Hub(pubsub, log);
    // Close once on loss (the gateway refuses new sockets until the subscription is back), so every client
    // reconnects later and re-queries what it missed instead of silently staying behind on an open socket.
    pubsub.onReceivingChange((receiving) => {
      if (!receiving) hub.closeSockets(CLOSE_TRY_AGAIN, 'event stream interrupted');
    });
    const presence = await createPresenceStore(config.pubsub, hub, log);
    const connections = await createConnectionRouter({
      hub,
      pubsub,
      clustered: config.pubsub.kind === 'redis',
      // Watcher counts are kept by the node holding the socket: it is the one that counts it out when it closes.
      after: async (connection, command, changed) => {
        if (command.op === 'presence') return;
        const delta = command.op === 'watch' ? 1 : -1;
        for (const cid of changed)
          await presence.watching(
            connection.appId,
            cid,
            connection.userId,
            delta,
            connection.anonymous,
          );
      },
    });
    const writes = createWriteQueue(
      handle.db,
      config.limits.writeBatchMaxRows,
      config.limits.writeBatchLingerMs,
      config.limits.writeBatchPatientLingerMs,
    );
    const channelTypes = createChannelTypeStore({
      db: handle.db,
      writes,
      pubsub,
      log,
      now: () => clock.now(),
    });
    await channelTypes.start(config.apps.map((app) => app.id));
    const deps: ChatDeps = {
      config,
      db: handle.db,
      dialect: handle.kind,
      writes,
      pubsub,
      hub,
      presence,
      connections,
      clock,
      log,
      channelTypes,
    };
    const services = createChatServices(deps);
    // Cached standings (roles, app-wide bans) follow changes made on other nodes (core/users/standing-sync.ts).
    await services.users.start(config.apps.map((app) => app.id));
    announceReapedPresence(deps, services);
    services.reminders.start();
    services.campaigns.start();
    services.uploads.start();
    return {
      deps,
      services,
      apps: createAppRegistry(config.apps),
      tokens: new TokenCache(config.limits.tokenCacheSize),
      async close() {
        // Not 1000, so clients reconnect and re-query instead of giving up.
        hub.closeAll(CLOSE_SERVICE_RESTART, 'server shutting down');
        services.channels.stop();
        await services.reminders.stop();
        await services.campaigns.stop();
        await services.uploads.stop();
        await services.users.stop();
        await writes.drain();
        await presence.close();
        await connections.close();
        await channelTypes.stop();
        await pubsub.close();
        await handle.close();
      },
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
