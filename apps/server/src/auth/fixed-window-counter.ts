interface Window {
  count: number;
  resetAt: number;
}

export interface FixedWindowCounterOptions {
  windowMs: number;
  /** Injected so tests can move time without waiting. */
  now?: () => number;
  /** Bound on remembered keys; the oldest windows are dropped first. */
  maxKeys?: number;
}

/**
 * Counts events per key in fixed windows that start at a key's first event. In memory: the product server is a
 * single process (docs/architecture.md); losing the counts on restart only gives an attacker one fresh window.
 */
export class FixedWindowCounter {
  readonly #windows = new Map<string, Window>();
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #maxKeys: number;

  constructor(options: FixedWindowCounterOptions) {
    this.#windowMs = options.windowMs;
    this.#now = options.now ?? Date.now;
    this.#maxKeys = options.maxKeys ?? 100_000;
  }

  /** Events counted for `key` in its current window. */
  count(key: string): number {
    return this.#current(key)?.count ?? 0;
  }

  /** Counts one event and returns the new total for the window. */
  add(key: string): number {
    const window = this.#current(key);
    if (window) {
      window.count += 1;
      return window.count;
    }
    this.#prune();
    this.#windows.set(key, { count: 1, resetAt: this.#now() + this.#windowMs });
    return 1;
  }

  /** Whole seconds until `key`'s window ends (at least 1), for Retry-After. */
  retryAfterSeconds(key: string): number {
    const window = this.#current(key);
    if (!window) return 1;
    return Math.max(1, Math.ceil((window.resetAt - this.#now()) / 1000));
  }

  #current(key: string): Window | undefined {
    const window = this.#windows.get(key);
    if (!window) return undefined;
    if (window.resetAt <= this.#now()) {
      this.#windows.delete(key);
      return undefined;
    }
    return window;
  }

  #prune(): void {
    if (this.#windows.size < this.#maxKeys) return;
    const now = this.#now();
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
    // Still full of live windows: forget the oldest rather than grow without bound.
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < this.#maxKeys) break;
      this.#windows.delete(key);
    }
  }
}
