import { Redis } from 'ioredis';
import type { ChatServerConfig } from '../config.ts';
import type { Logger } from '../chat/core/deps.ts';
import type { Hub } from './hub.ts';
import { createRedisPresenceStore } from './presence-redis.ts';
import { createMemoryPresenceStore, type PresenceStore } from './presence-store.ts';

/**
 * A Redis connection for shared state (presence, rate limits) that fails a command at once while Redis is away
 * (no offline queue, no retries), so callers fall back to this node's own view instead of waiting.
 */
export async function connectSharedStateRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
  });
  // Errors surface on each command (and are logged there once per outage); an unhandled 'error' would crash.
  redis.on('error', () => undefined);
  await redis.connect();
  return redis;
}

/** The one switch on where presence lives: the hub in one process, Redis in a cluster. */
export async function createPresenceStore(
  config: ChatServerConfig['pubsub'],
  hub: Hub,
  log: Logger,
): Promise<PresenceStore> {
  if (config.kind === 'memory') return createMemoryPresenceStore(hub);
  const redis = await connectSharedStateRedis(config.url);
  const store = createRedisPresenceStore({
    redis,
    keyPrefix: config.keyPrefix,
    ttlMs: config.presenceTtlMs,
    hub,
    log,
  });
  return {
    ...store,
    async close() {
      await store.close();
      redis.disconnect();
    },
  };
}
