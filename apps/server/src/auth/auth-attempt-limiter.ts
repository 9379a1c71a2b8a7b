import type { Config } from '../config.ts';
import { appError } from '../errors.ts';
import { FixedWindowCounter } from './fixed-window-counter.ts';

/**
 * Rate limits for sign-in and sign-up (docs/config.md): every attempt counts against the client's IP, and failed
 * attempts count against the email they named. Over either limit, the attempt is refused with 429 TOO_MANY_ATTEMPTS
 * before the password is even checked, so a locked email cannot be probed further.
 */
export class AuthAttemptLimiter {
  readonly #limits: Config['authRateLimit'];
  readonly #perIp: FixedWindowCounter;
  readonly #failuresPerEmail: FixedWindowCounter;

  constructor(limits: Config['authRateLimit'], now?: () => number) {
    this.#limits = limits;
    this.#perIp = new FixedWindowCounter({ windowMs: limits.windowMs, now });
    this.#failuresPerEmail = new FixedWindowCounter({ windowMs: limits.windowMs, now });
  }

  /** Counts an attempt from `ip` naming `email`; throws TOO_MANY_ATTEMPTS when either is over its limit. */
  admit(ip: string, email: string | undefined): void {
    const { maxPerIp, maxFailuresPerEmail } = this.#limits;
    if (maxPerIp > 0 && this.#perIp.add(ip) > maxPerIp) {
      throw appError.tooManyAttempts(this.#perIp.retryAfterSeconds(ip));
    }
    if (email !== undefined && maxFailuresPerEmail > 0) {
      const key = emailKey(email);
      if (this.#failuresPerEmail.count(key) >= maxFailuresPerEmail) {
        throw appError.tooManyAttempts(this.#failuresPerEmail.retryAfterSeconds(key));
      }
    }
  }

  /** Records that an attempt naming `email` failed (wrong password, email taken, …). */
  recordFailure(email: string): void {
    if (this.#limits.maxFailuresPerEmail > 0) this.#failuresPerEmail.add(emailKey(email));
  }
}

function emailKey(email: string): string {
  return email.trim().toLowerCase();
}
