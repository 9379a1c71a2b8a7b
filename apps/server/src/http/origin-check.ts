import type { FastifyRequest } from 'fastify';
import { appError } from '../errors.ts';
import { normalizeOrigin, trustedOriginsFor } from './origins.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF guard for our own cookie-authenticated routes, matching what better-auth does for /api/auth/*: a
 * state-changing request that carries cookies must come from a trusted origin (Origin, else Referer).
 * Requests without cookies are let through: they carry no session, so the route answers 401 anyway.
 */
export function assertTrustedOrigin(request: FastifyRequest, publicUrl: string): void {
  if (SAFE_METHODS.has(request.method) || request.headers.cookie === undefined) return;
  const claimed = request.headers.origin ?? request.headers.referer;
  const origin = claimed === undefined ? undefined : normalizeOrigin(claimed);
  if (origin === undefined) throw appError.missingOrigin();
  if (!trustedOriginsFor(publicUrl, request.protocol, request.host).includes(origin)) {
    throw appError.invalidOrigin();
  }
}
