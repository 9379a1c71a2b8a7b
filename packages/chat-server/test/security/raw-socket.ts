import WebSocket from 'ws';
import type { ContractEnv } from '../contract/helpers.ts';

export type Frame = Record<string, unknown>;

export interface RawSocketOptions {
  /** The `json` payload's user_id and user_details.id: whatever the attacker claims. */
  claimedUserId: string;
  /** A JWT, or undefined to connect as the client's `connectAnonymousUser` does. */
  token?: string;
}

export interface RawSocket {
  socket: WebSocket;
  /** Every frame received so far, in order (the first `health.check` included). */
  frames: Frame[];
  /** The first `health.check`, with `me` and `connection_id`, or the handshake's `{error}` frame. */
  first: Frame;
  /**
   * Sends a client ping and resolves on its answer. The server writes a socket's frames in order, so every frame
   * queued for this socket before the ping has arrived once the answer does.
   */
  flush(): Promise<void>;
  close(): void;
}

/** A bare websocket speaking the client's /connect protocol, for handshakes the client library never sends. */
export async function openRawSocket(
  env: ContractEnv,
  options: RawSocketOptions,
): Promise<RawSocket> {
  const json = encodeURIComponent(
    JSON.stringify({
      user_id: options.claimedUserId,
      user_details: { id: options.claimedUserId },
      client_request_id: 'raw',
    }),
  );
  const authType = options.token === undefined ? 'anonymous' : 'jwt';
  const url =
    `${env.server.baseURL.replace('http', 'ws')}/connect?json=${json}&api_key=${env.server.apiKey}` +
    `&authorization=${options.token ?? 'undefined'}&stream-auth-type=${authType}`;
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const wake of [...waiters]) wake();
  });
  const waitFor = (check: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const done = () => {
        if (!check()) return;
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(done);
        reject(new Error(`no ${what} within 5 s`));
      }, 5000);
      waiters.add(done);
      done();
    });
  await waitFor(() => frames.length > 0, 'first frame');
  let pings = 0;
  return {
    socket,
    frames,
    first: frames[0]!,
    async flush() {
      const before = frames.filter((f) => f.type === 'health.check').length;
      pings += 1;
      socket.send(JSON.stringify([{ type: 'health.check', client_id: `raw-${pings}` }]));
      await waitFor(
        () => frames.filter((f) => f.type === 'health.check').length > before,
        'ping answer',
      );
    },
    close() {
      socket.close();
    },
  };
}
