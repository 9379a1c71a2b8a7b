interface FailureRecord {
  failures: number;
  lastFailureAt: number;
}

export interface FailureBackoffOptions {
  /** Failures allowed before any wait. */
  freeFailures: number;
  /** Wait after the first failure past the free ones; each further failure doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A key with no failure for this long starts over. At least maxDelayMs, or the longest wait would reset it. */
  forgetAfterMs: number;
  /** Injected so tests can move time without waiting. */
  now?: () => number;
  /** Bound on remembered keys; the least recently failed are dropped first. */
  maxKeys?: number;
}

/** 2^30 × a 1 s base is decades: any exponent past this is capped by maxDelayMs anyway. */
const MAX_EXPONENT = 30;

/**
 * Exponential backoff per key: after `freeFailures` failures, the next attempt must wait `baseDelayMs`, then twice
 * that after each further failure, up to `maxDelayMs`. It slows a guesser down without ever refusing for longer
 * than `maxDelayMs` after their last failure. In memory, like FixedWindowCounter, and bounded.
 */
export class FailureBackoff {
  readonly #records = new Map<string, FailureRecord>();
  readonly #options: Required<Omit<FailureBackoffOptions, 'now'>>;
  readonly #now: () => number;

  constructor(options: FailureBackoffOptions) {
    this.#options = { maxKeys: 100_000, ...options };
    this.#now = options.now ?? Date.now;
  }

  /** Failures remembered for `key`. */
  failures(key: string): number {
    return this.#current(key)?.failures ?? 0;
  }

  /** Milliseconds `key` must still wait before its next attempt; 0 when it may go ahead. */
  waitMs(key: string): number {
    const record = this.#current(key);
    if (!record) return 0;
    const { freeFailures, baseDelayMs, maxDelayMs } = this.#options;
    const excess = record.failures - freeFailures;
    if (excess < 0) return 0;
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(excess, MAX_EXPONENT));
    return Math.max(0, record.lastFailureAt + delay - this.#now());
  }

  recordFailure(key: string): void {
    const failures = this.failures(key) + 1;
    // Re-inserted, so the map's order is the order of last failure and eviction drops the stalest.
    this.#records.delete(key);
    this.#prune();
    this.#records.set(key, { failures, lastFailureAt: this.#now() });
  }

  reset(key: string): void {
    this.#records.delete(key);
  }

  #current(key: string): FailureRecord | undefined {
    const record = this.#records.get(key);
    if (!record) return undefined;
    if (this.#now() - record.lastFailureAt >= this.#options.forgetAfterMs) {
      this.#records.delete(key);
      return undefined;
    }
    return record;
  }

  #prune(): void {
    for (const key of this.#records.keys()) {
      if (this.#records.size < this.#options.maxKeys) break;
      this.#records.delete(key);
    }
  }
}
