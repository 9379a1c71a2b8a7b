import type { Redis } from 'ioredis';
import { createOutageTracker } from '../pubsub/outage.ts';
import type { ChatServerConfig } from '../config.ts';
import { connectSharedStateRedis } from '../realtime/presence-wiring.ts';
import type { SharedWindows, WindowCounter, WindowState } from './rate-limit.ts';

/**
 * KEYS: counter. ARGV: limit, window ms. A fixed window starting at the key's first hit; a refused hit is not
 * counted. Returns {allowed 0/1, count, ms left in the window}.
 */
const WINDOW_HIT_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if count == 0 or ttl < 0 then
  redis.call('SET', KEYS[1], 1, 'PX', ARGV[2])
  return {1, 1, tonumber(ARGV[2])}
end
if count >= tonumber(ARGV[1]) then return {0, count, ttl} end
redis.call('INCR', KEYS[1])
return {1, count + 1, ttl}
`;

type RedisWithWindow = Redis & {
  rateLimitHit(key: string, limit: number, windowMs: number): Promise<[number, number, number]>;
};

export interface RedisWindowsOptions {
  redis: Redis;
  keyPrefix: string;
  windowMs: number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  now?: () => number;
}

/**
 * Fixed windows in Redis, one atomic script per hit (count, start the window with its expiry, refuse past the
 * limit), so a limit holds across every node. While Redis cannot be reached each node counts on its own again:
 * never unlimited and never an error for the caller; the outage is logged once, and its end once.
 */
export function createRedisWindows(options: RedisWindowsOptions): SharedWindows {
  const { keyPrefix, windowMs, log } = options;
  const now = options.now ?? Date.now;
  const redis = options.redis as RedisWithWindow;
  if (typeof redis.rateLimitHit !== 'function')
    redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: WINDOW_HIT_SCRIPT });
  const outage = createOutageTracker();

  return {
    async hit(key: string, limit: number, local: WindowCounter): Promise<WindowState> {
      const call = outage.begin();
      try {
        const [allowed, count, leftMs] = await redis.rateLimitHit(
          `${keyPrefix}ratelimit:${key}`,
          limit,
          windowMs,
        );
        if (outage.succeeded(call)) log.info({}, 'shared rate limits in Redis available again');
        return {
          allowed: allowed === 1,
          limit,
          remaining: limit - count,
          resetAt: now() + Number(leftMs),
        };
      } catch (error) {
        if (outage.failed())
          log.warn({ err: error }, 'shared rate limits unavailable: counting on this node');
        return local.hit(key, limit);
      }
    },
  };
}

/** The shared windows of a cluster (Redis configured), with their own connection; undefined in one process. */
export async function connectSharedWindows(
  config: ChatServerConfig,
  log: RedisWindowsOptions['log'],
): Promise<{ windows: SharedWindows; close(): void } | undefined> {
  if (config.pubsub.kind !== 'redis') return undefined;
  const redis = await connectSharedStateRedis(config.pubsub.url);
  const windows = createRedisWindows({
    redis,
    keyPrefix: config.pubsub.keyPrefix,
    windowMs: config.rateLimits.windowMs,
    log,
  });
  return { windows, close: () => redis.disconnect() };
}
