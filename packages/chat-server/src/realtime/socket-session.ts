import { randomUUID } from 'node:crypto';
import { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { UserRow } from '../chat/core/users/repo.ts';
import { placeholderUser, toUserResponse } from '../chat/core/users/serialize.ts';
import {
  NOTHING_UNREAD,
  ownUserBase,
  type OwnUserBase,
  type OwnUserResponse,
} from '../chat/core/users/me.ts';
import { isPlainObject } from '../chat/core/json.ts';
import type { ChatDeps } from '../chat/core/deps.ts';
import type { ChatServices } from '../chat/services.ts';
import { ChatError, chatError, ErrorCodes, toChatError } from '../errors.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import type { ChatRuntime } from '../runtime.ts';
import { CLOSE_PERMANENT, CLOSE_POLICY_VIOLATION, CLOSE_TRY_AGAIN } from './close-codes.ts';
import { Connection } from './connection.ts';
import { Frame } from './frame.ts';
import { assertGuestAllowed, parseHandshake, type Handshake } from './handshake.ts';
import type { Hub } from './hub.ts';
import { announcePresence } from './presence-events.ts';

/** What every websocket on this node shares. */
export interface GatewayContext {
  runtime: ChatRuntime;
  deps: ChatDeps;
  services: ChatServices;
  hub: Hub;
  limiter: RateLimiter;
}

/** One accepted websocket, from the upgrade until it closes; `connection` exists once the handshake succeeded. */
interface SocketSession {
  socket: WebSocket;
  address: string;
  countFrame: () => boolean;
  connection?: Connection;
  closed: boolean;
  releaseAnonymous?: () => void;
}

/** Serves one upgraded socket: handshake, client pings, cleanup on close. */
export function serveSocket(context: GatewayContext, socket: WebSocket, request: FastifyRequest) {
  const session: SocketSession = {
    socket,
    address: context.limiter.addressOf(request),
    countFrame: context.limiter.frameCounter(),
    closed: false,
  };
  releaseUpgrade(socket);
  socket.on('message', (data) => onClientFrame(context, session, data));
  socket.on('close', () => onSocketClosed(context, session));
  socket.on('error', () => socket.terminate());
  void runHandshake(context, session, request);
}

/**
 * Lets the upgrade's HTTP objects go: otherwise every open socket keeps its upgrade request and reply (URL with
 * token, headers, Fastify's request and reply; a few KB each, 10,000 sockets after a reconnect storm). Two things hold
 * them: the raw socket's pending HTTP response, never sent after an upgrade, and the websocket plugin's error
 * listener, which only logs and terminates (ours, added next, terminates).
 */
function releaseUpgrade(socket: WebSocket): void {
  const raw = (socket as unknown as { _socket?: { _httpMessage?: ServerResponse | null } })._socket;
  const response = raw?._httpMessage;
  if (raw && response instanceof ServerResponse) response.detachSocket(raw as Socket);
  socket.removeAllListeners('error');
}

/** Clients only ever send pings worth answering; anything else is read and dropped. */
function onClientFrame(context: GatewayContext, session: SocketSession, data: RawData): void {
  const connection = session.connection;
  if (!connection?.isOpen) return;
  if (!session.countFrame()) {
    refuseFrames(context, connection);
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString());
  } catch {
    return;
  }
  const events = Array.isArray(parsed) ? parsed : [parsed];
  if (events.some((e) => isPlainObject(e) && e.type === 'health.check'))
    context.hub.sendTo(connection, healthCheck(context, connection));
}

export function healthCheck(context: GatewayContext, connection: Connection, me?: object): Frame {
  return Frame.of({
    type: 'health.check',
    connection_id: connection.id,
    cid: '*',
    ...(me ? { me } : {}),
    created_at: context.deps.clock.now(),
  });
}

function onSocketClosed(context: GatewayContext, session: SocketSession): void {
  session.closed = true;
  session.releaseAnonymous?.();
  const current = session.connection;
  if (!current) return;
  const watched = context.hub.remove(current);
  void afterClose(context, current, watched);
}

/**
 * Without the bus subscription this node would miss other nodes' events for this socket: the client retries (with
 * backoff) until it is back, then catches up by re-querying.
 */
function refuseWhileDeaf(context: GatewayContext, session: SocketSession): boolean {
  if (context.deps.pubsub.receiving) return false;
  session.socket.close(CLOSE_TRY_AGAIN, 'event stream unavailable, try again');
  return true;
}

async function runHandshake(
  context: GatewayContext,
  session: SocketSession,
  request: FastifyRequest,
): Promise<void> {
  if (refuseWhileDeaf(context, session)) return;
  try {
    await admitAndGreet(context, session, request);
  } catch (error) {
    failHandshake(context, session, error);
  }
}

/** Admission checks in the order the rate limits expect, then the first `health.check` carrying `me`. */
async function admitAndGreet(
  context: GatewayContext,
  session: SocketSession,
  request: FastifyRequest,
): Promise<void> {
  const { limiter, hub } = context;
  limiter.admitHandshake(session.address);
  const handshake = parseHandshake(context.runtime, request.query);
  if (handshake.anonymous) session.releaseAnonymous = limiter.admitAnonymousSocket(session.address);
  else limiter.admitUserHandshake(handshake);
  const { me, row } = await context.services.bans.admitConnection(
    handshake.appId,
    handshake.anonymous ? null : handshake.userId,
    session.address,
    () => ownUserOf(context, handshake),
  );
  if (session.closed || refuseWhileDeaf(context, session)) {
    session.releaseAnonymous?.();
    return;
  }
  if (!handshake.anonymous)
    limiter.admitUserSocket(hub.userConnectionCount(handshake.appId, handshake.userId));
  const connection = openConnection(context, session, handshake, me.role);
  hub.add(connection);
  hub.sendTo(connection, healthCheck(context, connection, me));
  await announceArrival(context, handshake, row);
}

/**
 * `user.presence.changed` when this is the user's first connection, decided cluster-wide: a second socket on
 * another node is no new arrival. The row was just written, so the event's user is built from it, not read again.
 */
export async function announceArrival(
  context: Pick<GatewayContext, 'deps' | 'services'>,
  handshake: Handshake,
  row: UserRow | undefined,
): Promise<void> {
  if (row && (await context.deps.presence.connected(handshake.appId, handshake.userId)))
    await announcePresence(
      context.deps,
      context.services,
      handshake.appId,
      handshake.userId,
      toUserResponse(row, true),
    );
}

/** The id every anonymous client is told it has (Stream's). */
const ANONYMOUS_USER_ID = '!anon';

/**
 * The `me` of the first health.check, upserted from `user_details` (with the stored row), or a placeholder for
 * anonymous sockets (no row).
 */
export async function ownUserOf(
  context: GatewayContext,
  handshake: Handshake,
): Promise<{ me: OwnUserResponse | (OwnUserBase & { anon: true }); row?: UserRow }> {
  const { deps, services } = context;
  if (handshake.anonymous) {
    // Every anonymous user is `!anon` to its client, as on Stream; the socket keeps its own id inside (handshake.ts).
    const self = placeholderUser(ANONYMOUS_USER_ID, 'anonymous', deps.clock.now());
    return { me: { ...ownUserBase(self, NOTHING_UNREAD), anon: true } };
  }
  const { appId, userId, details, role } = handshake;
  const { row, created } = await services.users.upsertOnConnect(appId, userId, details, role);
  return { me: await services.me(assertGuestAllowed(handshake, row), created), row };
}

function openConnection(
  context: GatewayContext,
  session: SocketSession,
  handshake: Handshake,
  role: string,
): Connection {
  const { deps } = context;
  session.connection = new Connection({
    id: randomUUID(),
    appId: handshake.appId,
    userId: handshake.userId,
    role,
    anonymous: handshake.anonymous,
    socket: session.socket,
    maxBufferedBytes: deps.config.limits.socketMaxBufferedBytes,
    onBroken: (broken, reason) => {
      deps.log.warn({ connectionId: broken.id, reason }, 'closing websocket after a failed write');
    },
  });
  return session.connection;
}

/**
 * A database outage asks the client to come back (1013, no frame: a first connectUser would take a frame as final);
 * anything else is an `{error}` frame in Stream's shape, then close 1000, or 1013 after a rate limit.
 */
function failHandshake(context: GatewayContext, session: SocketSession, error: unknown): void {
  const { deps } = context;
  const { socket } = session;
  const chat = error instanceof ChatError ? error : toChatError(error);
  session.releaseAnonymous?.();
  if (chat.statusCode === 503) {
    deps.log.warn({ err: error }, 'websocket handshake deferred: database unavailable');
    socket.close(CLOSE_TRY_AGAIN, 'database unavailable, try again');
    return;
  }
  if (!(error instanceof ChatError)) deps.log.error({ err: error }, 'websocket handshake failed');
  if (socket.readyState === socket.OPEN) {
    const closeCode =
      chat.code === ErrorCodes.RateLimitError.code ? CLOSE_TRY_AGAIN : CLOSE_PERMANENT;
    socket.send(JSON.stringify({ error: chat.toBody() }), () =>
      socket.close(closeCode, chat.message.slice(0, 120)),
    );
  }
}

/** Answers a frame flood with Stream's rate-limit error and closes the socket. */
function refuseFrames(context: GatewayContext, connection: Connection): void {
  const error = chatError.rateLimited('Too many frames on this connection; reconnect later.');
  context.hub.sendTo(connection, Frame.of({ error: error.toBody() }));
  connection.close(CLOSE_POLICY_VIOLATION, 'too many frames');
}

export async function afterClose(
  context: GatewayContext,
  connection: Connection,
  watched: string[],
): Promise<void> {
  const { deps, services } = context;
  try {
    await services.channels.connectionClosed(connection, watched);
    if (connection.anonymous) return;
    if (!(await deps.presence.disconnected(connection.appId, connection.userId))) return;
    await services.users.touchLastActive(connection.appId, connection.userId);
    await announcePresence(deps, services, connection.appId, connection.userId);
  } catch (error) {
    // The database may already be closed during shutdown; nothing is lost by skipping the presence event.
    deps.log.warn({ err: error }, 'cleanup after websocket close failed');
  }
}
