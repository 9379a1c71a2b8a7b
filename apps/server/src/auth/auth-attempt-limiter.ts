import type { Config } from '../config.ts';
import { appError } from '../errors.ts';
import { FailureBackoff } from './failure-backoff.ts';
import { FixedWindowCounter } from './fixed-window-counter.ts';

/** The first wait once an address has used its free failures on an account; it doubles with each failure. */
const BACKOFF_BASE_MS = 1000;
/**
 * The longest wait the account-wide slow-down imposes on an address that has never signed in to the account. Short
 * on purpose: it is shared by every such address, the owner's new phone included, so it must slow a botnet without
 * becoming a lockout.
 */
const ACCOUNT_MAX_DELAY_MS = 5 * 60_000;
/** How many (address, account) pairs that signed in successfully are remembered. */
const MAX_KNOWN_PAIRS = 100_000;

/** A bounded set whose oldest entries are forgotten first. */
class RecentSet {
  readonly #entries = new Set<string>();

  constructor(readonly maxSize: number) {}

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  add(key: string): void {
    this.#entries.delete(key);
    this.#entries.add(key);
    for (const oldest of this.#entries) {
      if (this.#entries.size <= this.maxSize) break;
      this.#entries.delete(oldest);
    }
  }
}

/**
 * Throttles password guessing on sign-in and sign-up without letting anyone lock an owner out (docs/config.md, Rate
 * limits). Three limits, each refused with 429 TOO_MANY_ATTEMPTS and Retry-After before the password is checked:
 * - every attempt counts against the client's address (fixed window): one address cannot spray many accounts;
 * - failures count per (address, account), with exponential backoff past the free ones: a guesser waits longer
 *   after each wrong password, and nobody else is affected;
 * - failures also count per account across all addresses: past a generous number, addresses that have never
 *   signed in to that account are slowed down (backoff, capped at a few minutes), which bounds a distributed guess,
 *   while an address the owner has signed in from keeps its own pace.
 */
export class AuthAttemptLimiter {
  readonly #limits: Config['authRateLimit'];
  readonly #perIp: FixedWindowCounter;
  readonly #perPair: FailureBackoff;
  readonly #perAccount: FailureBackoff;
  readonly #knownPairs = new RecentSet(MAX_KNOWN_PAIRS);

  constructor(limits: Config['authRateLimit'], now?: () => number) {
    this.#limits = limits;
    this.#perIp = new FixedWindowCounter({ windowMs: limits.windowMs, now });
    this.#perPair = new FailureBackoff({
      freeFailures: limits.maxFailuresPerEmail,
      baseDelayMs: BACKOFF_BASE_MS,
      maxDelayMs: limits.windowMs,
      forgetAfterMs: 2 * limits.windowMs,
      now,
    });
    const accountMaxDelayMs = Math.min(ACCOUNT_MAX_DELAY_MS, limits.windowMs);
    this.#perAccount = new FailureBackoff({
      freeFailures: limits.maxFailuresPerAccount,
      baseDelayMs: BACKOFF_BASE_MS,
      maxDelayMs: accountMaxDelayMs,
      forgetAfterMs: limits.windowMs + accountMaxDelayMs,
      now,
    });
  }

  /** Counts an attempt from `ip` naming `email`; throws TOO_MANY_ATTEMPTS when it must wait. */
  admit(ip: string, email: string | undefined): void {
    const { maxPerIp, maxFailuresPerEmail, maxFailuresPerAccount } = this.#limits;
    if (maxPerIp > 0 && this.#perIp.add(ip) > maxPerIp) {
      throw appError.tooManyAttempts(this.#perIp.retryAfterSeconds(ip));
    }
    if (email === undefined) return;
    const account = emailKey(email);
    const pair = pairKey(ip, account);
    if (maxFailuresPerEmail > 0) refuseWhileWaiting(this.#perPair.waitMs(pair));
    if (maxFailuresPerAccount > 0 && !this.#knownPairs.has(pair)) {
      refuseWhileWaiting(this.#perAccount.waitMs(account));
    }
  }

  /** Records that an attempt from `ip` naming `email` failed (wrong password, email taken). */
  recordFailure(ip: string, email: string): void {
    const account = emailKey(email);
    if (this.#limits.maxFailuresPerEmail > 0) this.#perPair.recordFailure(pairKey(ip, account));
    if (this.#limits.maxFailuresPerAccount > 0) this.#perAccount.recordFailure(account);
  }

  /** Records a successful sign-in or sign-up: the address's failures on the account are forgiven and it is known. */
  recordSuccess(ip: string, email: string): void {
    const pair = pairKey(ip, emailKey(email));
    this.#perPair.reset(pair);
    this.#knownPairs.add(pair);
  }
}

function refuseWhileWaiting(waitMs: number): void {
  if (waitMs > 0) throw appError.tooManyAttempts(Math.max(1, Math.ceil(waitMs / 1000)));
}

function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** Addresses never contain a newline, so the pair cannot collide with another. */
function pairKey(ip: string, account: string): string {
  return `${ip}\n${account}`;
}
