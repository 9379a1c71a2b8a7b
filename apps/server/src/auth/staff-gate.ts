import type { Role } from '@daohuu/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { appError } from '../errors.ts';
import { findUserById } from '../profile/profile-repo.ts';
import type { Auth } from './create-auth.ts';
import { FixedWindowCounter } from './fixed-window-counter.ts';
import { requireSessionUserId } from './session.ts';

/** Requests per staff member per minute, counted apart for reads and writes. */
export interface StaffLimits {
  reads: number;
  writes: number;
}

export type StaffGate = (
  request: FastifyRequest,
  reply: FastifyReply,
  kind: keyof StaffLimits,
) => Promise<{ id: string; role: Role }>;

const WINDOW_MS = 60_000;

/**
 * The check in front of every staff route (moderation, campaigns): a signed-in user (401 otherwise) whose role is
 * one of `roles` (403 otherwise), within their per-minute limit of that kind of request (429 with Retry-After).
 * It runs before the request is parsed, so nobody else learns anything from the answers.
 */
export function staffGate(options: {
  auth: Auth;
  db: Kysely<Database>;
  roles: readonly Role[];
  limits: StaffLimits;
}): StaffGate {
  const { auth, db, roles, limits } = options;
  const counter = new FixedWindowCounter({ windowMs: WINDOW_MS });
  const isOneOf = (role: string | null): role is Role =>
    role !== null && (roles as readonly string[]).includes(role);
  return async (request, reply, kind) => {
    const userId = await requireSessionUserId(auth, request, reply);
    const user = await findUserById(db, userId);
    if (!user) throw appError.unauthenticated();
    const role = user.role;
    if (!isOneOf(role)) throw appError.forbidden();
    const key = `${kind}:${user.id}`;
    if (counter.add(key) > limits[kind])
      throw appError.tooManyAttempts(counter.retryAfterSeconds(key));
    return { id: user.id, role };
  };
}
