/** Origin rules shared by better-auth's `trustedOrigins` and our own CSRF check (http/origin-check.ts). */

/** `new URL(value).origin`, so `http://localhost:80` and `http://localhost` compare equal; undefined if unparsable. */
export function normalizeOrigin(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The origin a browser shows for a page served by this request: its scheme plus its Host header. The SPA is served
 * by this same server, so that origin is ours whatever name the user typed (localhost, 127.0.0.1, a LAN address).
 * This is safe against CSRF because a browser always sends the target's Host but the attacking page's Origin.
 */
export function sameHostOrigin(protocol: string, host: string | undefined): string | undefined {
  if (!host) return undefined;
  return normalizeOrigin(`${protocol}://${host}`);
}

/** The origins allowed to make state-changing requests: PUBLIC_URL plus the request's own host. Never a wildcard. */
export function trustedOriginsFor(
  publicUrl: string,
  protocol: string,
  host: string | undefined,
): string[] {
  const origins = [publicUrl];
  const own = sameHostOrigin(protocol, host);
  if (own && own !== publicUrl) origins.push(own);
  return origins;
}
