import WebSocket from 'ws';
import { EVENT_TIMEOUT_MS, type ContractEnv } from './helpers.ts';

// A bare websocket for what the client library never sends or never shows (raw frames, bytes, backlogs).
// Tests import it through helpers.ts.

export type Frame = Record<string, unknown>;

/** The `/connect` URL the client opens for `userId` with `token`. */
export function connectUrl(env: ContractEnv, userId: string, token: string): string {
  const json = encodeURIComponent(
    JSON.stringify({ user_id: userId, user_details: { id: userId }, client_request_id: 'raw' }),
  );
  return (
    `${env.server.baseURL.replace('http', 'ws')}/connect?json=${json}` +
    `&api_key=${env.server.apiKey}&authorization=${token}&stream-auth-type=jwt`
  );
}

export interface RawClientSocket {
  userId: string;
  socket: WebSocket;
  /** Every frame received and not yet taken by `nextFrame`, in order. */
  frames: Frame[];
  /** The first `health.check`, with `me` and `connection_id`. */
  first: Frame;
  connectionId: string;
  /** Takes (removes) the first frame of `type`, waiting for it within the event bound. */
  nextFrame(type: string): Promise<Frame>;
  /** Resolves with every frame of `type` once there are at least `count`, leaving them in `frames`. */
  framesOf(type: string, count: number): Promise<Frame[]>;
}

/** Connects `userId` with a valid token over a bare websocket speaking the client's protocol. */
export async function connectRawSocket(env: ContractEnv, userId: string): Promise<RawClientSocket> {
  const socket = new WebSocket(connectUrl(env, userId, env.admin.createToken(userId)));
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const wake of [...waiters]) wake();
  });

  function waitUntil<T>(take: () => T | undefined, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = take();
        if (value === undefined) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(value);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${what} within ${EVENT_TIMEOUT_MS} ms`));
      }, EVENT_TIMEOUT_MS);
      waiters.add(check);
      check();
    });
  }
  const nextFrame = (type: string) =>
    waitUntil(() => {
      const index = frames.findIndex((frame) => frame.type === type);
      return index < 0 ? undefined : frames.splice(index, 1)[0];
    }, `${type} frame`);
  const framesOf = (type: string, count: number) =>
    waitUntil(() => {
      const matching = frames.filter((frame) => frame.type === type);
      return matching.length >= count ? matching : undefined;
    }, `${count} ${type} frames`);

  const first = await nextFrame('health.check');
  return {
    userId,
    socket,
    frames,
    first,
    connectionId: String(first.connection_id),
    nextFrame,
    framesOf,
  };
}
