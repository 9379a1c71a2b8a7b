import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { ChatError } from '../errors.ts';
import { actorOf } from '../http/context.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { defineRoute } from '../http/route.ts';
import { queryValue } from '../http/schemas.ts';
import type { ChatRuntime } from '../runtime.ts';
import { Connection } from './connection.ts';
import { parseHandshake, type Handshake } from './handshake.ts';
import { LongPollRegistry, type LongPollEntry } from './longpoll-registry.ts';
import { pollAnswer, PollSocket } from './longpoll-socket.ts';
import {
  afterClose,
  announceArrival,
  healthCheck,
  ownUserOf,
  type GatewayContext,
} from './socket-session.ts';

/**
 * `GET /longpoll` as stream-chat's fallback transport speaks it (node_modules/stream-chat/src/connection_fallback.ts):
 * `?json=` opens a connection (the websocket handshake's payload, answered `{event}` with the first health.check),
 * a call with `connection_id` polls (`{events: [...]}`, held up to `holdMs` when there is nothing to say), and
 * `close=true` ends it. The credentials travel as on every REST call (headers), so the REST hooks have already
 * authenticated and counted the call.
 */
export const longPollQuery = z.looseObject({
  api_key: queryValue,
  connection_id: z.string().max(128).optional(),
  json: queryValue,
  close: z.enum(['true', 'false']).optional(),
});

type LongPollQuery = z.output<typeof longPollQuery>;

interface LongPollContext extends GatewayContext {
  registry: LongPollRegistry;
}

export function registerLongPoll(
  app: FastifyInstance,
  runtime: ChatRuntime,
  limiter: RateLimiter,
): void {
  const { deps, services } = runtime;
  const context: LongPollContext = {
    runtime,
    deps,
    services,
    hub: deps.hub,
    limiter,
    registry: new LongPollRegistry(deps.config.longPoll),
  };
  defineRoute(app, {
    method: 'GET',
    url: '/longpoll',
    query: longPollQuery,
    handler: async ({ query }, request, reply) => {
      if (query.close === 'true') return closeLongPoll(context, request, query);
      if (query.json !== undefined) return openLongPoll(context, request, query);
      return pollLongPoll(context, request, reply, query);
    },
  });
}

/** The handshake's own query, rebuilt from where a REST call carries the credentials. */
function handshakeQuery(request: FastifyRequest, query: LongPollQuery) {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const authorization = header('authorization');
  return {
    api_key: query.api_key,
    authorization: authorization?.startsWith('Bearer ') ? authorization.slice(7) : authorization,
    'stream-auth-type': header('stream-auth-type'),
    json: query.json,
  };
}

function refuseWhileDeaf(context: LongPollContext): void {
  if (context.deps.pubsub.receiving) return;
  // -1/503 is retryable for the client, which opens again with back-off (the websocket's close 1013).
  throw new ChatError('ServiceUnavailableError', 'event stream unavailable, try again');
}

/**
 * The websocket handshake's checks in the same order and against the same counters (socket-session.ts
 * admitAndGreet), plus the long-poll caps; answers the first health.check, which the client dispatches itself.
 */
async function openLongPoll(
  context: LongPollContext,
  request: FastifyRequest,
  query: LongPollQuery,
): Promise<{ event: unknown }> {
  const { limiter, hub, services } = context;
  refuseWhileDeaf(context);
  const address = limiter.addressOf(request);
  limiter.admitHandshake(address);
  const handshake = parseHandshake(context.runtime, handshakeQuery(request, query));
  const releases: (() => void)[] = [];
  const release = () => releases.splice(0).forEach((free) => free());
  let entry: LongPollEntry | undefined;
  try {
    if (handshake.anonymous) releases.push(limiter.admitAnonymousSocket(address));
    else limiter.admitUserHandshake(handshake);
    const { me, row } = await services.bans.admitConnection(
      handshake.appId,
      handshake.anonymous ? null : handshake.userId,
      address,
      () => ownUserOf(context, handshake),
    );
    refuseWhileDeaf(context);
    if (!handshake.anonymous)
      limiter.admitUserSocket(hub.userConnectionCount(handshake.appId, handshake.userId));
    releases.push(context.registry.admit({ ...handshake, address }));
    entry = openConnection(context, handshake, me.role, address, release);
    await announceArrival(context, handshake, row);
    return { event: JSON.parse(healthCheck(context, entry.connection, me).text) as unknown };
  } catch (error) {
    // Once open, ending the connection releases its places and undoes the hub bookkeeping too.
    if (entry) entry.socket.terminate();
    else release();
    throw error;
  }
}

function openConnection(
  context: LongPollContext,
  handshake: Handshake,
  role: string,
  address: string,
  release: () => void,
): LongPollEntry {
  const { deps, hub, registry } = context;
  // The socket only ever ends after this function returned (idle timer, close, overflow): `connection` is set.
  const socket = new PollSocket(deps.config.longPoll, () => {
    release();
    registry.delete(connection.id);
    const watched = hub.remove(connection);
    void afterClose(context, connection, watched);
  });
  const connection = new Connection({
    id: randomUUID(),
    appId: handshake.appId,
    userId: handshake.userId,
    role,
    anonymous: handshake.anonymous,
    // Connection writes through `send` when the socket has no raw stream, which PollSocket never has.
    socket: socket as unknown as WebSocket,
    maxBufferedBytes: deps.config.longPoll.maxQueuedBytes,
    onBroken: (broken, reason) => {
      deps.log.warn({ connectionId: broken.id, reason }, 'closing long-poll connection');
    },
  });
  const entry: LongPollEntry = { connection, socket, address };
  registry.add(entry);
  hub.add(connection);
  return entry;
}

/** Answers with what is queued, or holds the request until an event comes, the hold ends or a newer poll arrives. */
async function pollLongPoll(
  context: LongPollContext,
  request: FastifyRequest,
  reply: FastifyReply,
  query: LongPollQuery,
): Promise<FastifyReply> {
  const { limiter, registry } = context;
  const entry = registry.owned(query.connection_id, actorOf(request), limiter.addressOf(request));
  const pending = entry.socket.poll();
  // A client that gives up (disconnect, timeout) frees its place at once; the idle clock starts then.
  reply.raw.once('close', pending.abandon);
  const events = await pending.events;
  return reply.type('application/json; charset=utf-8').send(pollAnswer(events));
}

async function closeLongPoll(
  context: LongPollContext,
  request: FastifyRequest,
  query: LongPollQuery,
): Promise<Record<string, never>> {
  const { limiter, registry } = context;
  const entry = registry.owned(query.connection_id, actorOf(request), limiter.addressOf(request));
  entry.connection.close(1000, 'closed by the client');
  return {};
}
