import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { AuthAttemptLimiter } from './auth-attempt-limiter.ts';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const LIMITS = {
  windowMs: 900_000,
  maxPerIp: 0,
  maxFailuresPerEmail: 2,
  maxFailuresPerAccount: 4,
};

/** Retry-After of the refusal, or 0 when the attempt is admitted. */
function retryAfter(limiter: AuthAttemptLimiter, ip: string, email: string): number {
  try {
    limiter.admit(ip, email);
    return 0;
  } catch (error) {
    if (!(error instanceof AppError) || error.statusCode !== 429) throw error;
    return Number(error.headers['retry-after']);
  }
}

describe('AuthAttemptLimiter', () => {
  it('doubles the wait of one address after each failure past the free ones, up to the window', () => {
    const time = clock();
    const limiter = new AuthAttemptLimiter(LIMITS, time.now);
    const waits: number[] = [];
    for (let failure = 0; failure < 14; failure += 1) {
      const wait = retryAfter(limiter, '198.51.100.1', 'a@example.vn');
      waits.push(wait);
      time.advance(wait * 1000);
      limiter.admit('198.51.100.1', 'a@example.vn');
      limiter.recordFailure('198.51.100.1', 'a@example.vn');
    }
    expect(waits).toEqual([0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
  });

  it('does not make other addresses wait for one guesser', () => {
    const limiter = new AuthAttemptLimiter(LIMITS, clock().now);
    for (let failure = 0; failure < 3; failure += 1)
      limiter.recordFailure('198.51.100.1', 'a@x.vn');
    expect(retryAfter(limiter, '198.51.100.1', 'a@x.vn')).toBeGreaterThan(0);
    expect(retryAfter(limiter, '203.0.113.5', 'a@x.vn')).toBe(0);
  });

  it('slows unknown addresses once an account has many failures, never for longer than 5 minutes', () => {
    const time = clock();
    const limiter = new AuthAttemptLimiter(LIMITS, time.now);
    limiter.recordSuccess('203.0.113.5', 'a@x.vn');
    for (let bot = 0; bot < 30; bot += 1) limiter.recordFailure(`198.51.100.${bot}`, 'a@x.vn');
    expect(retryAfter(limiter, '192.0.2.1', 'a@x.vn')).toBe(300);
    // The owner's known address keeps its own pace.
    expect(retryAfter(limiter, '203.0.113.5', 'a@x.vn')).toBe(0);
    time.advance(300_000);
    expect(retryAfter(limiter, '192.0.2.1', 'a@x.vn')).toBe(0);
  });

  it('forgives an address its failures once it signs in', () => {
    const limiter = new AuthAttemptLimiter(LIMITS, clock().now);
    for (let failure = 0; failure < 3; failure += 1) limiter.recordFailure('203.0.113.5', 'a@x.vn');
    limiter.recordSuccess('203.0.113.5', 'a@x.vn');
    expect(retryAfter(limiter, '203.0.113.5', 'a@x.vn')).toBe(0);
  });

  it('forgets a quiet guesser after twice the window', () => {
    const time = clock();
    const limiter = new AuthAttemptLimiter(LIMITS, time.now);
    for (let failure = 0; failure < 12; failure += 1)
      limiter.recordFailure('198.51.100.1', 'a@x.vn');
    time.advance(2 * LIMITS.windowMs);
    expect(retryAfter(limiter, '198.51.100.1', 'a@x.vn')).toBe(0);
  });
});
