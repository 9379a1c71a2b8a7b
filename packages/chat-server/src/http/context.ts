import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.ts';
import type { Actor } from '../chat/core/access/access.ts';
import { chatError } from '../errors.ts';

/** Per-request auth result, set by the auth hook and read by route handlers. */
export interface RequestContext {
  app: AppConfig;
  actor: Actor;
}

const contexts = new WeakMap<FastifyRequest, RequestContext>();

export function setRequestContext(request: FastifyRequest, context: RequestContext): void {
  contexts.set(request, context);
}

export function contextOf(request: FastifyRequest): RequestContext {
  const context = contexts.get(request);
  if (!context) throw chatError.auth('request is not authenticated');
  return context;
}

export function actorOf(request: FastifyRequest): Actor {
  return contextOf(request).actor;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs no credentials (uploaded files). */
    public?: boolean;
  }
}
