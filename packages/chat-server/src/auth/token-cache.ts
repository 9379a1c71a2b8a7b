import type { VerifiedToken } from './tokens.ts';

/** Whose token an entry verified: the app, and whether that app checked signatures (`disableAuthChecks`). */
export interface TokenScope {
  appId: string;
  checked: boolean;
}

interface Entry extends TokenScope {
  verified: VerifiedToken;
}

/**
 * Verified tokens by their exact text, so the HMAC runs once per token rather than once per request. Entries are
 * re-checked for expiry on every hit; the oldest entry is evicted when full.
 *
 * Keyed by the token alone, as the request carried it: a key joining the app to the token would be a new string
 * of some 250 characters on every request, hashed and compared afresh. The scope is checked on the entry instead;
 * turning auth checks back on must not leave unsigned tokens cached as valid.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity: number) {}

  get(token: string, scope: TokenScope, nowSeconds: number): VerifiedToken | undefined {
    const hit = this.entries.get(token);
    if (!hit || hit.appId !== scope.appId || hit.checked !== scope.checked) return undefined;
    if (hit.verified.exp !== undefined && nowSeconds >= hit.verified.exp) {
      this.entries.delete(token);
      return undefined;
    }
    return hit.verified;
  }

  set(token: string, scope: TokenScope, verified: VerifiedToken): void {
    if (this.capacity === 0) return;
    if (this.entries.size >= this.capacity && !this.entries.has(token)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(token, { appId: scope.appId, checked: scope.checked, verified });
  }
}
