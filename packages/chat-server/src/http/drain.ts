import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Graceful shutdown of an HTTP server, for the chat CLI and the product server alike. Fastify's own close answers
 * requests that arrive on open keep-alive connections with a bare 503 and (with forceCloseConnections) destroys the
 * ones in progress, so an acknowledged-looking send could be cut off mid-way. `drain` runs before `app.close()`.
 */
export interface HttpDrain {
  /**
   * Stops accepting connections, answers every request already received (and any that still arrives on an open
   * connection) with `Connection: close`, and resolves once none is left, or after `graceMs`: then it closes the
   * connections still busy and resolves with how many requests it cut off.
   */
  drain(graceMs: number): Promise<number>;
}

/**
 * Counts the requests in progress on `server` and its open HTTP connections; call it before `listen`. Websocket
 * upgrades are neither: they are closed by the app's own close, after the drain.
 */
export function trackRequests(server: Server): HttpDrain {
  const inFlight = new Set<ServerResponse>();
  // A request a client has sent may not be parsed yet when the drain starts (a loaded machine): its connection is
  // open but has no response. Waiting for the connections as well as the responses keeps it from arriving after
  // the drain, when the app is closing and could only refuse it.
  const connections = new Set<Socket>();
  let draining = false;
  let allDone: (() => void) | undefined;
  const settled = () => inFlight.size === 0 && connections.size === 0;
  const check = () => {
    if (draining && settled()) allDone?.();
  };

  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => {
      connections.delete(socket);
      check();
    });
  });
  server.on('upgrade', (_request, socket: Socket) => {
    connections.delete(socket);
    check();
  });
  server.on('request', (_request, response: ServerResponse) => {
    inFlight.add(response);
    if (draining) askToClose(response);
    response.once('close', () => {
      inFlight.delete(response);
      if (!draining) return;
      // Its connection may be idle now (a client that ignored `Connection: close`): nothing else will end it.
      server.closeIdleConnections();
      check();
    });
  });

  return {
    async drain(graceMs) {
      draining = true;
      // No new connections; Node also closes the keep-alive connections that are idle right now.
      server.close();
      server.closeIdleConnections();
      for (const response of inFlight) askToClose(response);
      if (settled()) return 0;
      const finished = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), graceMs);
        allDone = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      if (finished) return 0;
      const cutOff = inFlight.size;
      server.closeAllConnections();
      return cutOff;
    },
  };
}

/** The connection ends after this response, so the client opens a new one (refused here, served elsewhere). */
function askToClose(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('Connection', 'close');
}

/** Past the grace period, closing itself (websockets, write queue, pub/sub, databases) gets this long. */
const CLOSE_TIMEOUT_MS = 5000;

export interface ShutdownTarget {
  /** `app.close()`: closes websockets with a code that makes clients reconnect, flushes writes, closes databases. */
  close(): Promise<unknown>;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

/**
 * On SIGINT or SIGTERM: drain the requests in progress (at most `graceMs`), close the app and exit 0; exit 1 if
 * closing fails or hangs. A second signal while shutting down means "stop now". For the entry points only.
 */
export function shutDownOnSignals(
  target: ShutdownTarget,
  requests: HttpDrain,
  graceMs: number,
): void {
  let stopping = false;
  async function shutDown(signal: NodeJS.Signals): Promise<void> {
    if (stopping) process.exit(1);
    stopping = true;
    target.log.info({ signal, graceMs }, 'shutting down: finishing requests in progress');
    const cutOff = await requests.drain(graceMs);
    if (cutOff > 0) target.log.warn({ requests: cutOff }, 'grace period over: requests cut off');
    setTimeout(() => {
      target.log.error({}, 'shutdown did not finish in time');
      process.exit(1);
    }, CLOSE_TIMEOUT_MS).unref();
    try {
      await target.close();
    } catch (error) {
      target.log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
    process.exit(0);
  }
  process.on('SIGINT', (signal) => void shutDown(signal));
  process.on('SIGTERM', (signal) => void shutDown(signal));
}
