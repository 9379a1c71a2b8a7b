import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import type { Actor } from '../chat/core/access/access.ts';
import { createRedisWindows } from './rate-limit-redis.ts';
import { RateLimiter } from './rate-limit.ts';

const user = { appId: 'app', userId: 'lan', role: 'user', isServer: false } as Actor;

function limits(endpoint: number) {
  return parseConfig({ apps: [{ key: 'k', secret: 's' }], rateLimits: { perUser: { endpoint } } })
    .rateLimits;
}

describe('REST rate limits counted in Redis', () => {
  // Nothing listens on port 1: every command fails at once, as during an outage.
  const unreachable = new Redis('redis://127.0.0.1:1', {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
  });
  unreachable.on('error', () => undefined);
  afterAll(() => unreachable.disconnect());

  it('falls back to the node’s own window while Redis is unreachable: still limited, never an error, logged once', async () => {
    const warnings: string[] = [];
    const log = { warn: (_: object, msg: string) => warnings.push(msg), info: () => undefined };
    const windows = createRedisWindows({
      redis: unreachable,
      keyPrefix: 't:',
      windowMs: 60_000,
      log,
    });
    const limiter = new RateLimiter(limits(2), Date.now, windows);
    const states = [];
    for (let i = 0; i < 3; i += 1)
      states.push(await limiter.countRequest(user, 'GET /app', '1.2.3.4'));
    expect(states.map((state) => state?.allowed)).toEqual([true, true, false]);
    expect(warnings).toHaveLength(1);
  });

  it('counts nothing when the limits are off, whatever the shared store', async () => {
    const windows = createRedisWindows({
      redis: unreachable,
      keyPrefix: 't:',
      windowMs: 60_000,
      log: { warn: () => undefined, info: () => undefined },
    });
    const off = parseConfig({ apps: [{ key: 'k', secret: 's' }], rateLimits: { enabled: false } });
    const limiter = new RateLimiter(off.rateLimits, Date.now, windows);
    expect(await limiter.countRequest(user, 'GET /app', '1.2.3.4')).toBeNull();
  });
});
