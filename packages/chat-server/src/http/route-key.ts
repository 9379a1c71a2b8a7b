import type { FastifyRequest } from 'fastify';

/** `METHOD /path` of a route as registered, without the prefix the chat server is mounted at ("POST /guest"). */
export function routeKey(request: FastifyRequest, prefix: string): string {
  const url = request.routeOptions.url ?? '(unknown)';
  const path = prefix && url.startsWith(prefix) ? url.slice(prefix.length) : url;
  return `${request.method} ${path || '/'}`;
}

/**
 * Requests the REST hooks (authentication, rate limits) leave alone: preflights, the websocket handshake (it
 * authenticates from its query string and reports failures as frames; the gateway limits it), and routes marked
 * public (uploaded files, fetched by <img> tags and downloads that carry no credentials).
 */
export function bypassesRestHooks(request: FastifyRequest): boolean {
  return (
    request.method === 'OPTIONS' ||
    request.routeOptions.url?.endsWith('/connect') === true ||
    request.routeOptions.config?.public === true
  );
}
