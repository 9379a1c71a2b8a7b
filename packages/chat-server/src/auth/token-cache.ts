import type { VerifiedToken } from './tokens.ts';

/**
 * Verified tokens by their exact text, so the HMAC runs once per token rather than once per request. Entries are
 * re-checked for expiry on every hit; the oldest entry is evicted when full.
 */
export class TokenCache {
  private readonly entries = new Map<string, VerifiedToken>();

  constructor(private readonly capacity: number) {}

  get(key: string, nowSeconds: number): VerifiedToken | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.exp !== undefined && nowSeconds >= hit.exp) {
      this.entries.delete(key);
      return undefined;
    }
    return hit;
  }

  set(key: string, value: VerifiedToken): void {
    if (this.capacity === 0) return;
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, value);
  }
}
