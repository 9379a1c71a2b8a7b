import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { chatError } from '../errors.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import type { ChatRuntime } from '../runtime.ts';
import { connectQuery } from './handshake.ts';
import { serveSocket, type GatewayContext } from './socket-session.ts';

/**
 * `/connect`: runs the handshake (query-string auth, user upsert, first `health.check` with `me`), answers every
 * client ping with a `health.check` and cleans up watches and presence when the socket goes away. Auth problems
 * are reported as an `{error}` frame on an accepted socket followed by close 1000, never as an HTTP error; rate
 * limits (packages/chat-server/src/http/rate-limit.ts) the same way but with close 1013, which the client retries.
 */
export function registerGateway(
  app: FastifyInstance,
  runtime: ChatRuntime,
  limiter: RateLimiter,
): void {
  const { deps, services } = runtime;
  const context: GatewayContext = { runtime, deps, services, hub: deps.hub, limiter };

  app.route({
    method: 'GET',
    url: '/connect',
    // Declared like every REST route's input (http/route.ts); handshake.ts parses it on the socket, where its
    // errors are answered as frames.
    config: { schemas: { query: connectQuery } },
    // A plain GET without the upgrade gets Stream's error JSON, not the websocket plugin's empty 404.
    handler: async () => {
      throw chatError.input('/connect only accepts websocket upgrades');
    },
    wsHandler: (socket: WebSocket, request: FastifyRequest) =>
      serveSocket(context, socket, request),
  });
}
