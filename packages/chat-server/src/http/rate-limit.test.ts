import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { addressKey, clientAddress, RateLimiter, WindowCounter } from './rate-limit.ts';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function requestFrom(peer: string, forwardedFor?: string): FastifyRequest {
  return {
    ip: peer,
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  } as unknown as FastifyRequest;
}

describe('WindowCounter', () => {
  it('allows `limit` hits per window, reports what is left, and starts over when the window ends', () => {
    const time = clock();
    const counter = new WindowCounter(1000, 100, time.now);

    const states = Array.from({ length: 4 }, () => counter.hit('k', 3));
    expect(states.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(states[3]!.resetAt).toBe(1_001_000);

    time.advance(1000);
    expect(counter.hit('k', 3)).toMatchObject({ allowed: true, remaining: 2, resetAt: 1_002_000 });
  });

  it('keeps at most maxKeys counters however many keys an attacker invents', () => {
    const time = clock();
    const counter = new WindowCounter(60_000, 100, time.now);

    for (let i = 0; i < 10_000; i += 1) counter.hit(`address-${i}`, 5);

    expect(counter.size).toBeLessThanOrEqual(100);
    // The newest keys are the ones kept.
    expect(counter.hit('address-9999', 1)).toMatchObject({ allowed: false });
  });

  it('drops expired counters as new keys arrive', () => {
    const time = clock();
    const counter = new WindowCounter(1000, 1000, time.now);
    for (let i = 0; i < 50; i += 1) counter.hit(`old-${i}`, 5);

    time.advance(1000);
    counter.hit('new', 5);

    expect(counter.size).toBe(1);
  });
});

describe('addressKey', () => {
  it('counts IPv4 and IPv4-mapped IPv6 as the same address', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every IPv6 address of one /64 as one', () => {
    const key = addressKey('2001:db8:1:2:aaaa::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:fffe')).toBe(key);
    expect(addressKey('2001:db8:1:3::1')).not.toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('clientAddress', () => {
  it('ignores X-Forwarded-For unless proxies are trusted', () => {
    expect(clientAddress(requestFrom('198.51.100.1', '203.0.113.9'), 0)).toBe('198.51.100.1');
  });

  it('takes the entry the trusted proxies appended, never what the client wrote before it', () => {
    const request = requestFrom('10.0.0.2', '6.6.6.6, 203.0.113.9');
    expect(clientAddress(request, 1)).toBe('203.0.113.9');
    expect(clientAddress(requestFrom('10.0.0.2', '6.6.6.6, 203.0.113.9, 10.0.0.1'), 2)).toBe(
      '203.0.113.9',
    );
  });

  it('falls back to the peer when the header is missing, short or not an address', () => {
    expect(clientAddress(requestFrom('10.0.0.2'), 1)).toBe('10.0.0.2');
    expect(clientAddress(requestFrom('10.0.0.2', 'nonsense'), 1)).toBe('10.0.0.2');
  });
});

describe('RateLimiter', () => {
  const config = (rateLimits: object) =>
    parseConfig({ apps: [{ key: 'k', secret: 's' }], rateLimits }).rateLimits;
  const user = {
    appId: 'a',
    userId: 'u',
    role: 'user',
    isServer: false,
    connectionId: null,
  };

  it('limits nothing when switched off', () => {
    const limiter = new RateLimiter(config({ enabled: false }));
    expect(limiter.request(user, 'POST /channels/:type/:id/message', '1.2.3.4')).toBeNull();
    expect(() => limiter.admitUserSocket(10_000)).not.toThrow();
  });

  it('counts an anonymous caller by address, never by the user_id it claims', () => {
    const limiter = new RateLimiter(config({ perAddress: { endpoint: 2 } }));
    const claims = ['x', 'y', 'z'].map((userId) => ({ ...user, userId, role: 'anonymous' }));

    const states = claims.map((actor) => limiter.request(actor, 'GET /app', '1.2.3.4'));

    expect(states.map((state) => state?.allowed)).toEqual([true, true, false]);
  });

  it('frees an anonymous socket place once, however often it is released', () => {
    const limiter = new RateLimiter(config({ perAddress: { anonymousConnections: 1 } }));
    const release = limiter.admitAnonymousSocket('1.2.3.4');
    expect(() => limiter.admitAnonymousSocket('1.2.3.4')).toThrow(/anonymous connections/);

    release();
    release();
    limiter.admitAnonymousSocket('1.2.3.4');

    expect(() => limiter.admitAnonymousSocket('1.2.3.4')).toThrow(/anonymous connections/);
  });
});
