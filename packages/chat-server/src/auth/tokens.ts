import { createHmac, timingSafeEqual } from 'node:crypto';
import { chatError } from '../errors.ts';

/** Claims we read from a Stream-format JWT. */
export interface TokenClaims {
  user_id?: string;
  server?: boolean;
  exp?: number;
  iat?: number;
  nbf?: number;
}

export type VerifiedToken =
  { kind: 'server'; exp?: number } | { kind: 'user'; userId: string; exp?: number };

// Stream's dev tokens carry padded standard base64 and the literal signature `devtoken`. Node's base64 decoder
// reads both alphabets (and padding or none) as they are.
function decodeSegment(segment: string): Buffer {
  return Buffer.from(segment, 'base64');
}

function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}

export interface VerifyOptions {
  secret: string;
  /** Accept `devtoken` signatures (the app has auth checks disabled). */
  allowDevTokens: boolean;
  nowSeconds: number;
}

/**
 * Verifies an HS256 token signed with the app secret. Errors carry Stream's codes: 40 expired (the only one the
 * client answers with a token refresh), 41 not valid yet, 42 used before issued, 43 bad signature, 5 malformed.
 */
export function verifyToken(token: string, options: VerifyOptions): VerifiedToken {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[0] || !parts[1])
    throw chatError.auth('JWTAuth error: token is malformed');
  const [headerPart, payloadPart, signature] = parts as [string, string, string];
  let header: { alg?: unknown };
  let claims: TokenClaims;
  try {
    header = JSON.parse(decodeSegment(headerPart).toString('utf8')) as { alg?: unknown };
    claims = JSON.parse(decodeSegment(payloadPart).toString('utf8')) as TokenClaims;
  } catch {
    throw chatError.auth('JWTAuth error: token is malformed');
  }
  if (typeof claims !== 'object' || claims === null)
    throw chatError.auth('JWTAuth error: token is malformed');

  if (signature === 'devtoken') {
    // Even with auth checks off, an unsigned token only ever names a user: it never grants server access.
    if (!options.allowDevTokens || claims.server === true) throw chatError.tokenSignature();
  } else {
    if (header.alg !== 'HS256') throw chatError.tokenSignature();
    const expected = createHmac('sha256', options.secret)
      .update(`${headerPart}.${payloadPart}`)
      .digest();
    const given = decodeSegment(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw chatError.tokenSignature();
  }

  // A time claim that is not a number would otherwise be skipped, and a token meant to expire never would.
  for (const claim of ['exp', 'nbf', 'iat'] as const) {
    if (claims[claim] !== undefined && typeof claims[claim] !== 'number')
      throw chatError.auth(`JWTAuth error: the ${claim} claim must be a number`);
  }
  const now = options.nowSeconds;
  if (typeof claims.exp === 'number' && now >= claims.exp) throw chatError.tokenExpired();
  if (typeof claims.nbf === 'number' && now < claims.nbf) throw chatError.tokenNotValidYet();
  // A little tolerance for clock skew between token issuer and server, as Stream allows.
  if (typeof claims.iat === 'number' && claims.iat > now + 5)
    throw chatError.tokenUsedBeforeIssued();

  const expiry = claims.exp === undefined ? {} : { exp: claims.exp };
  if (claims.server === true) return { kind: 'server', ...expiry };
  if (typeof claims.user_id === 'string' && claims.user_id.length > 0)
    return { kind: 'user', userId: claims.user_id, ...expiry };
  throw chatError.auth('JWTAuth error: token has neither user_id nor server claim');
}

/**
 * Signs a user token the way `StreamChat.createToken` does (no iat unless given). The client checks the payload
 * with a standard-alphabet base64 decoder, so insignificant JSON whitespace is shifted around (changing the
 * base64 alignment) until the base64url text has no `-` or `_`, where both alphabets agree. Best effort.
 */
export function signUserToken(secret: string, userId: string, exp?: number, iat?: number): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims: TokenClaims = { user_id: userId };
  if (exp !== undefined) claims.exp = exp;
  if (iat !== undefined) claims.iat = iat;
  const inner = JSON.stringify(claims).slice(1, -1);
  let payload = base64url(`{${inner}}`);
  for (let variant = 1; variant < 27 && /[-_]/.test(payload); variant += 1) {
    const [a, b, c] = [variant % 3, Math.floor(variant / 3) % 3, Math.floor(variant / 9) % 3];
    payload = base64url(`${' '.repeat(a)}{${' '.repeat(b)}${inner}${' '.repeat(c)}}`);
  }
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}
