import type { FastifyInstance } from 'fastify';
import { FixedWindowCounter } from '../auth/fixed-window-counter.ts';
import type { Config } from '../config.ts';
import { appError } from '../errors.ts';

// A load balancer's probe comes from one address every few seconds and must never be refused.
const EXEMPT = new Set(['/api/health']);

/**
 * A ceiling on what one address may ask of the product API, so a single client cannot keep the server busy with
 * session lookups, searches and chat calls. Generous: carrier-grade NAT puts many Vietnamese mobile users behind one
 * address, and a page load makes a handful of calls. Sign-in and sign-up keep their own, much stricter limits
 * (auth/auth-attempt-limiter.ts); the embedded chat under /chat has its own per user (docs/security.md). Pages and
 * static files are not counted.
 */
export function installApiRateLimit(
  app: FastifyInstance,
  limits: Config['apiRateLimit'],
  now?: () => number,
): void {
  if (limits.maxPerIp === 0) return;
  const perIp = new FixedWindowCounter({ windowMs: limits.windowMs, now });
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?', 1)[0] ?? '';
    if (!path.startsWith('/api/') || EXEMPT.has(path)) return;
    if (perIp.add(request.ip) > limits.maxPerIp)
      throw appError.tooManyRequests(perIp.retryAfterSeconds(request.ip));
  });
}
