import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { authenticate } from '../auth/authenticate.ts';
import { assertUserId } from '../chat/core/users/service.ts';
import type { UserRow } from '../chat/core/users/repo.ts';
import { placeholderUser } from '../chat/core/users/serialize.ts';
import { isPlainObject, parseJsonInput, type JsonObject } from '../chat/core/json.ts';
import { ChatError, chatError, ErrorCodes, toChatError } from '../errors.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import type { ChatRuntime } from '../runtime.ts';
import { CLOSE_PERMANENT, CLOSE_POLICY_VIOLATION, CLOSE_TRY_AGAIN } from './close-codes.ts';
import { Connection } from './connection.ts';
import { Frame } from './frame.ts';

interface Handshake {
  userId: string;
  details: JsonObject;
  role: string;
  anonymous: boolean;
  appId: string;
  guestsEnabled: boolean;
}

function parseHandshake(
  runtime: ChatRuntime,
  query: Record<string, string | undefined>,
): Handshake {
  const identity = authenticate(
    runtime.apps,
    runtime.tokens,
    { apiKey: query.api_key, authType: query['stream-auth-type'], token: query.authorization },
    Math.floor(Date.now() / 1000),
  );
  const payload = parseJsonInput(query.json ?? '', 'the json query parameter');
  if (!isPlainObject(payload)) throw chatError.input('the json query parameter must be an object');
  const details = isPlainObject(payload.user_details) ? payload.user_details : {};
  const claimed =
    typeof payload.user_id === 'string'
      ? payload.user_id
      : typeof details.id === 'string'
        ? details.id
        : undefined;
  if (identity.kind === 'anonymous') {
    // Never the claimed id: the socket would receive that user's events. `!` is outside the user id alphabet, so
    // an anonymous socket cannot share a user's topic, and each one counts as its own watcher.
    const userId = `!anon-${randomUUID()}`;
    return {
      userId,
      details: {},
      role: 'anonymous',
      anonymous: true,
      appId: identity.app.id,
      guestsEnabled: identity.app.guests.enabled,
    };
  }
  if (identity.kind === 'server')
    throw chatError.auth('server tokens cannot open a websocket connection');
  if (claimed !== undefined && claimed !== identity.userId) {
    throw chatError.auth(`the token is for user ${identity.userId}, not ${claimed}`);
  }
  assertUserId(identity.userId);
  return {
    userId: identity.userId,
    details,
    role: 'user',
    anonymous: false,
    appId: identity.app.id,
    guestsEnabled: identity.app.guests.enabled,
  };
}

/** Switching guests off ends existing guest sessions too, whatever their tokens say. */
function assertGuestAllowed(handshake: Handshake, row: UserRow): UserRow {
  if (row.role === 'guest' && !handshake.guestsEnabled)
    throw chatError.notAllowed('guest users are disabled for this app');
  return row;
}

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
  const { hub } = deps;

  app.route({
    method: 'GET',
    url: '/connect',
    // A plain GET without the upgrade gets Stream's error JSON, not the websocket plugin's empty 404.
    handler: async () => {
      throw chatError.input('/connect only accepts websocket upgrades');
    },
    wsHandler: (socket: WebSocket, request: FastifyRequest) => serve(socket, request),
  });

  function serve(socket: WebSocket, request: FastifyRequest): void {
    let connection: Connection | undefined;
    let closed = false;
    let releaseAnonymous: (() => void) | undefined;
    const address = limiter.addressOf(request);
    const countFrame = limiter.frameCounter();

    const healthCheck = () =>
      Frame.of({
        type: 'health.check',
        connection_id: connection!.id,
        cid: '*',
        created_at: deps.clock.now(),
      });

    socket.on('message', (data) => {
      if (!connection?.isOpen) return;
      if (!countFrame()) {
        refuseFrames(connection);
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
        hub.sendTo(connection, healthCheck());
    });

    socket.on('close', () => {
      closed = true;
      releaseAnonymous?.();
      const current = connection;
      if (!current) return;
      const watched = hub.remove(current);
      void afterClose(current, watched);
    });
    socket.on('error', () => socket.terminate());

    // Without the bus subscription this node would miss other nodes' events for this socket: the client retries
    // (with backoff) until it is back, then catches up by re-querying.
    const refuseWhileDeaf = (): boolean => {
      if (deps.pubsub.receiving) return false;
      socket.close(CLOSE_TRY_AGAIN, 'event stream unavailable, try again');
      return true;
    };

    void (async () => {
      if (refuseWhileDeaf()) return;
      try {
        limiter.admitHandshake(address);
        const query = (request.query ?? {}) as Record<string, string | undefined>;
        const handshake = parseHandshake(runtime, query);
        if (handshake.anonymous) releaseAnonymous = limiter.admitAnonymousSocket(address);
        else limiter.admitUserHandshake(handshake);
        const me = handshake.anonymous
          ? {
              ...placeholderUser(handshake.userId, 'anonymous', deps.clock.now()),
              anon: true,
              online: true,
              devices: [],
              mutes: [],
              channel_mutes: [],
              total_unread_count: 0,
              unread_count: 0,
              unread_channels: 0,
              unread_threads: 0,
            }
          : await services.me(
              assertGuestAllowed(
                handshake,
                await services.users.upsertOnConnect(
                  handshake.appId,
                  handshake.userId,
                  handshake.details,
                  handshake.role,
                ),
              ),
            );
        if (closed || refuseWhileDeaf()) {
          releaseAnonymous?.();
          return;
        }
        if (!handshake.anonymous)
          limiter.admitUserSocket(hub.userConnectionCount(handshake.appId, handshake.userId));
        connection = new Connection(
          randomUUID(),
          handshake.appId,
          handshake.userId,
          me.role,
          handshake.anonymous,
          socket,
          deps.config.limits.socketMaxBufferedBytes,
          (broken, reason) => {
            deps.log.warn(
              { connectionId: broken.id, reason },
              'closing websocket after a failed write',
            );
          },
        );
        hub.add(connection);
        hub.sendTo(
          connection,
          Frame.of({
            type: 'health.check',
            connection_id: connection.id,
            cid: '*',
            me,
            created_at: deps.clock.now(),
          }),
        );
        if (
          !handshake.anonymous &&
          hub.userConnectionCount(handshake.appId, handshake.userId) === 1
        ) {
          await announcePresence(handshake.appId, handshake.userId);
        }
      } catch (error) {
        const chat = error instanceof ChatError ? error : toChatError(error);
        releaseAnonymous?.();
        if (chat.statusCode === 503) {
          deps.log.warn({ err: error }, 'websocket handshake deferred: database unavailable');
          socket.close(CLOSE_TRY_AGAIN, 'database unavailable, try again');
          return;
        }
        if (!(error instanceof ChatError))
          deps.log.error({ err: error }, 'websocket handshake failed');
        if (socket.readyState === socket.OPEN) {
          const closeCode =
            chat.code === ErrorCodes.RateLimitError.code ? CLOSE_TRY_AGAIN : CLOSE_PERMANENT;
          socket.send(JSON.stringify({ error: chat.toBody() }), () =>
            socket.close(closeCode, chat.message.slice(0, 120)),
          );
        }
      }
    })();
  }

  /** Answers a frame flood with Stream's rate-limit error and closes the socket. */
  function refuseFrames(connection: Connection): void {
    const error = chatError.rateLimited('Too many frames on this connection; reconnect later.');
    hub.sendTo(connection, Frame.of({ error: error.toBody() }));
    connection.close(CLOSE_POLICY_VIOLATION, 'too many frames');
  }

  async function announcePresence(appId: string, userId: string): Promise<void> {
    const user = await services.users.response(appId, userId);
    const event = { type: 'user.presence.changed', user, created_at: deps.clock.now() };
    services.events.toPresenceFollowers(appId, userId, event);
    services.events.toUser(appId, userId, event);
  }

  async function afterClose(connection: Connection, watched: string[]): Promise<void> {
    try {
      await services.channels.connectionClosed(connection, watched);
      if (connection.anonymous || hub.userConnectionCount(connection.appId, connection.userId) > 0)
        return;
      await services.users.touchLastActive(connection.appId, connection.userId);
      await announcePresence(connection.appId, connection.userId);
    } catch (error) {
      // The database may already be closed during shutdown; nothing is lost by skipping the presence event.
      deps.log.warn({ err: error }, 'cleanup after websocket close failed');
    }
  }
}
