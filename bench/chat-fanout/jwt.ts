import { createHmac } from 'node:crypto';

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

/**
 * HS256 JWT exactly as stream-chat's createToken makes it (no iat). Signed synchronously with node:crypto because
 * 10,000 tokens are minted before the connect phase and a promise per token would only add noise.
 */
export function signToken(payload: Record<string, unknown>, secret: string): string {
  const body = `${HEADER}.${base64url(JSON.stringify(payload))}`;
  const signature = createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${signature}`;
}

export function userToken(userId: string, secret: string): string {
  return signToken({ user_id: userId }, secret);
}

export function serverToken(secret: string): string {
  return signToken({ server: true }, secret);
}
