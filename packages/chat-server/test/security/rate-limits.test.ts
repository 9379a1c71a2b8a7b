import type { AxiosResponse } from 'axios';
import { ErrorFromResponse, type Event, type StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  EVENT_TIMEOUT_MS,
  connectUser,
  expectStreamError,
  expectStreamErrorBody,
  newClient,
  rawRequest,
  readStreamError,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
  type ContractEnv,
  type RawResponse,
} from '../contract/helpers.ts';

/** The close code a rate-limited handshake ends with: "try again later", which the client answers by reconnecting. */
const CLOSE_TRY_AGAIN_LATER = 1013;
/** The client treats 1000 as final: a rate limit must never use it. */
const CLOSE_FINAL = 1000;

type Frame = Record<string, unknown>;

/** The headers of a refused call, read from the client's own error. */
function refusalHeaders(error: unknown): Record<string, string> {
  expect(error).toBeInstanceOf(ErrorFromResponse);
  return (error as ErrorFromResponse<unknown>).response.headers as Record<string, string>;
}

/** Splits settled calls into answers and refusals, checking every refusal is Stream's rate-limit error. */
function expectRateLimited<T>(results: PromiseSettledResult<T>[]): {
  accepted: T[];
  refused: unknown[];
} {
  const accepted: T[] = [];
  const refused: unknown[] = [];
  for (const result of results) {
    if (result.status === 'fulfilled') accepted.push(result.value);
    else refused.push(result.reason);
  }
  for (const reason of refused)
    expect(readStreamError(reason)).toMatchObject({ code: 9, status: 429 });
  return { accepted, refused };
}

/** The rate-limit headers as numbers. */
function rateLimitOf(headers: Record<string, string>) {
  return {
    limit: Number(headers['x-ratelimit-limit']),
    remaining: Number(headers['x-ratelimit-remaining']),
    reset: Number(headers['x-ratelimit-reset']),
  };
}

/** Every response the client receives, newest last (the real client, through its own axios instance). */
function recordResponses(client: StreamChat): AxiosResponse[] {
  const responses: AxiosResponse[] = [];
  client.axiosInstance.interceptors.response.use((response) => {
    responses.push(response);
    return response;
  });
  return responses;
}

/** Calls `attempt` until it stops failing with code 9, for at most `timeoutMs` (a window reset has no event). */
async function untilNotRateLimited<T>(attempt: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (readStreamError(error).code !== 9 || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The websocket URL the client opens, for the attacks the client cannot make (floods of frames or handshakes). */
function connectUrl(
  env: ContractEnv,
  auth: { userId: string; token: string } | 'anonymous',
): string {
  const user =
    auth === 'anonymous' ? {} : { user_id: auth.userId, user_details: { id: auth.userId } };
  const json = encodeURIComponent(JSON.stringify({ ...user, client_request_id: 'raw' }));
  const credentials =
    auth === 'anonymous'
      ? 'authorization=undefined&stream-auth-type=anonymous'
      : `authorization=${auth.token}&stream-auth-type=jwt`;
  return `${env.server.baseURL.replace('http', 'ws')}/connect?json=${json}&api_key=${env.server.apiKey}&${credentials}`;
}

interface RawSocket {
  socket: WebSocket;
  frames: Frame[];
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves with the first frame matching `predicate`, waiting at most EVENT_TIMEOUT_MS. */
  frame(predicate: (frame: Frame) => boolean): Promise<Frame>;
}

function openRawSocket(url: string): RawSocket {
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the socket did not close in time')),
      EVENT_TIMEOUT_MS * 2,
    );
    socket.on('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ code, reason: reason.toString() });
    });
  });
  closed.catch(() => undefined);
  const frame = (predicate: (frame: Frame) => boolean) =>
    new Promise<Frame>((resolve, reject) => {
      const check = () => {
        const found = frames.find(predicate);
        if (!found) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error('no matching frame in time'));
      }, EVENT_TIMEOUT_MS);
      waiters.add(check);
      check();
    });
  return { socket, frames, closed, frame };
}

const isError = (frame: Frame) => frame.error !== undefined;

/** A visitor's anonymous connect through the real client (its promise type allows no value). */
async function connectAnonymous(env: ContractEnv) {
  return newClient(env).connectAnonymousUser();
}

describe('#12 no rate limits on chat', { timeout: 30_000 }, () => {
  describe('per-user limits on writes and events', () => {
    const env = useContractEnv({
      config: { rateLimits: { perUser: { sendMessage: 5, sendEvent: 5, endpoint: 50 } } },
    });

    async function room(prefix: string) {
      const attackerId = uniqueId(`${prefix}-spam`);
      const otherId = uniqueId(`${prefix}-hien`);
      const watcherId = uniqueId(`${prefix}-xem`);
      const [attacker, other, watcher] = await Promise.all(
        [attackerId, otherId, watcherId].map((id) => connectUser(env(), id)),
      );
      const channelId = uniqueId(prefix);
      const members = [attackerId, otherId, watcherId];
      const attackerChannel = await watchChannel(attacker!, 'messaging', channelId, { members });
      const otherChannel = await watchChannel(other!, 'messaging', channelId);
      const watcherChannel = await watchChannel(watcher!, 'messaging', channelId);
      return { attackerId, otherId, attackerChannel, otherChannel, watcherChannel };
    }

    it('a user cannot send a burst of messages: past the limit every send gets code 9 / 429 with the rate-limit headers, and another user still sends', async () => {
      const { attackerId, otherChannel, attackerChannel } = await room('tin');

      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => sendText(attackerChannel, `spam ${i}`)),
      );

      const { accepted, refused } = expectRateLimited(results);
      expect(accepted).toHaveLength(5);
      expect(refused).toHaveLength(15);
      const headers = rateLimitOf(refusalHeaders(refused[0]));
      expect(headers).toMatchObject({ limit: 5, remaining: 0 });
      const nowSeconds = Date.now() / 1000;
      expect(headers.reset).toBeGreaterThan(nowSeconds - 1);
      expect(headers.reset).toBeLessThanOrEqual(Math.ceil(nowSeconds) + 60);
      expect(Number(refusalHeaders(refused[0])['retry-after'])).toBeGreaterThan(0);

      // Nothing refused was stored, and the other member is not held to the attacker's limit.
      const { messages } = await otherChannel.query({ messages: { limit: 50 } });
      expect(messages.filter((message) => message.user?.id === attackerId)).toHaveLength(5);
      const reply = await sendText(otherChannel, 'Ta vẫn gửi được.');
      expect(reply.text).toBe('Ta vẫn gửi được.');
    });

    it('a user cannot flood custom and typing events: past the limit they get code 9 and no refused event reaches a watcher', async () => {
      const { attackerId, otherChannel, attackerChannel, watcherChannel } = await room('su-kien');
      const seen: Event[] = [];
      watcherChannel.on((event) => {
        if (event.user?.id === attackerId && event.type !== 'user.watching.start') seen.push(event);
      });

      const results = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) =>
          attackerChannel.sendEvent(
            (i % 3 === 0 ? { type: 'typing.start' } : { type: 'phap-bao.loe-sang' }) as never,
          ),
        ),
      );

      const { accepted, refused } = expectRateLimited(results);
      expect(accepted).toHaveLength(5);
      expect(refused).toHaveLength(25);
      // Events of one channel reach a watcher in order: once the marker is in, every accepted event is too.
      const marker = waitForEvent(watcherChannel, 'phap-bao.da-xong' as never);
      await otherChannel.sendEvent({ type: 'phap-bao.da-xong' } as never);
      await marker;
      expect(seen).toHaveLength(5);
    });

    it('ordinary answers carry the rate-limit headers, counting down per endpoint', async () => {
      const id = uniqueId('dem');
      const client = await connectUser(env(), id);
      const responses = recordResponses(client);

      await client.queryChannels({ members: { $in: [id] } });
      await client.queryChannels({ members: { $in: [id] } });

      const [first, second] = responses.map((response) =>
        rateLimitOf(response.headers as Record<string, string>),
      );
      expect(first).toMatchObject({ limit: 50, remaining: 49 });
      expect(second).toMatchObject({ limit: 50, remaining: 48 });
      expect(second!.reset).toBe(first!.reset);
    });

    it('server-side calls are not held to the per-user limits', async () => {
      const { attackerId, attackerChannel } = await room('may-chu');
      const serverChannel = env().admin.channel('messaging', attackerChannel.id!);

      const sent = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          serverChannel.sendMessage({ text: `thông báo ${i}`, user_id: attackerId }),
        ),
      );

      expect(sent).toHaveLength(12);
    });
  });

  describe('per-address limits on anonymous calls', () => {
    const env = useContractEnv({ config: { rateLimits: { perAddress: { endpoint: 5 } } } });

    it('an anonymous visitor cannot flood the API from one address, while a signed-in user from the same address is unaffected', async () => {
      const visitor = newClient(env());
      await visitor.connectAnonymousUser();

      const results = await Promise.allSettled(
        Array.from({ length: 12 }, () => visitor.queryChannels({ type: 'livestream' })),
      );

      const { accepted, refused } = expectRateLimited(results);
      expect(accepted).toHaveLength(5);
      expect(refused).toHaveLength(7);
      expect(rateLimitOf(refusalHeaders(refused[0]))).toMatchObject({ limit: 5, remaining: 0 });
      // A second anonymous client on the same address shares the address's budget.
      const second = newClient(env());
      await second.connectAnonymousUser();
      await expectStreamError(second.queryChannels({ type: 'livestream' }), {
        code: 9,
        status: 429,
      });
      const id = uniqueId('dang-nhap');
      const user = await connectUser(env(), id);
      await expect(user.queryChannels({ members: { $in: [id] } })).resolves.toEqual([]);
    });

    it('an anonymous caller cannot escape the address limit by writing its own X-Forwarded-For', async () => {
      const answers: RawResponse[] = [];
      for (let call = 0; call < 7; call += 1) {
        answers.push(
          await rawRequest(env(), {
            method: 'GET',
            path: '/app',
            token: null,
            headers: { 'X-Forwarded-For': `198.51.100.${call}` },
          }),
        );
      }

      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expectStreamErrorBody(answers[6]!, 9, 429);
    });
  });

  describe('the address behind a trusted proxy', () => {
    const env = useContractEnv({
      config: { rateLimits: { trustProxy: 1, perAddress: { endpoint: 3 } } },
    });
    const appSettings = (forwardedFor: string) =>
      rawRequest(env(), {
        method: 'GET',
        path: '/app',
        token: null,
        headers: { 'X-Forwarded-For': forwardedFor },
      });

    it('an anonymous caller cannot escape its address limit by writing addresses before the one the proxy saw', async () => {
      const answers: RawResponse[] = [];
      for (let call = 0; call < 5; call += 1)
        answers.push(await appSettings(`198.51.100.${call}, 203.0.113.7`));

      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
      expectStreamErrorBody(answers[4]!, 9, 429);
      // Another client behind the same proxy has its own budget.
      expect((await appSettings('203.0.113.8')).status).toBe(200);
    });
  });

  describe('websocket handshakes from one address', () => {
    const env = useContractEnv({ config: { rateLimits: { perAddress: { connect: 5 } } } });

    it('an address cannot open sockets without limit: past the limit a handshake gets a code 9 error frame and a retryable close', async () => {
      const accepted = await Promise.all(Array.from({ length: 5 }, () => connectAnonymous(env())));
      expect(accepted.every((health) => typeof health?.connection_id === 'string')).toBe(true);

      await expectStreamError(connectAnonymous(env()), { code: 9, status: 429 });
      // Signed-in users connecting from the same address share its handshake budget.
      const id = uniqueId('cung-dia-chi');
      await expectStreamError(newClient(env()).connectUser({ id }, env().admin.createToken(id)), {
        code: 9,
        status: 429,
      });
      const raw = openRawSocket(connectUrl(env(), 'anonymous'));
      const error = await raw.frame(isError);
      expect(error.error).toMatchObject({ code: 9, StatusCode: 429 });
      const { code } = await raw.closed;
      expect(code).toBe(CLOSE_TRY_AGAIN_LATER);
      expect(code).not.toBe(CLOSE_FINAL);
    });
  });

  describe('concurrent anonymous sockets from one address', () => {
    const env = useContractEnv({
      config: { rateLimits: { perAddress: { anonymousConnections: 3 } } },
    });

    it('an address cannot hold more anonymous sockets than allowed, and a freed place can be taken again', async () => {
      const visitors = Array.from({ length: 3 }, () => newClient(env()));
      await Promise.all(visitors.map((visitor) => visitor.connectAnonymousUser()));

      await expectStreamError(connectAnonymous(env()), { code: 9, status: 429 });
      const id = uniqueId('dao-huu');
      await expect(connectUser(env(), id)).resolves.toBeDefined();

      await visitors[0]!.disconnectUser();
      const health = await untilNotRateLimited(() => connectAnonymous(env()), EVENT_TIMEOUT_MS);
      expect(health?.connection_id).toEqual(expect.any(String));
    });
  });

  describe('sockets of one user', () => {
    const env = useContractEnv({ config: { rateLimits: { perUser: { connections: 2 } } } });

    it('a user cannot hold more sockets than allowed at once', async () => {
      const id = uniqueId('phan-than');
      await connectUser(env(), id);
      await connectUser(env(), id);

      await expectStreamError(connectUser(env(), id), { code: 9, status: 429 });
      const other = uniqueId('nguoi-khac');
      await expect(connectUser(env(), other)).resolves.toBeDefined();
    });
  });

  describe('handshakes of one user', () => {
    const env = useContractEnv({ config: { rateLimits: { perUser: { connect: 3 } } } });

    it('a user cannot open handshakes without limit, while another user still connects', async () => {
      const id = uniqueId('ket-noi-lai');
      await Promise.all(Array.from({ length: 3 }, () => connectUser(env(), id)));

      await expectStreamError(connectUser(env(), id), { code: 9, status: 429 });
      const other = uniqueId('nguoi-khac');
      await expect(connectUser(env(), other)).resolves.toBeDefined();
    });
  });

  describe('websocket frames on one connection', () => {
    const env = useContractEnv({ config: { rateLimits: { perConnection: { frames: 10 } } } });

    it('a socket cannot flood the server with frames: past the limit it gets a code 9 error frame and is closed', async () => {
      const id = uniqueId('dap-phim');
      const raw = openRawSocket(
        connectUrl(env(), { userId: id, token: env().admin.createToken(id) }),
      );
      await raw.frame((frame) => frame.type === 'health.check');

      for (let ping = 0; ping < 40; ping += 1)
        raw.socket.send(JSON.stringify([{ type: 'health.check', client_id: 'raw' }]));

      const error = await raw.frame(isError);
      expect(error.error).toMatchObject({ code: 9, StatusCode: 429 });
      const { code } = await raw.closed;
      expect(code).not.toBe(CLOSE_FINAL);
      // The first frame was the handshake's health.check; at most the allowed pings were answered.
      expect(
        raw.frames.filter((frame) => frame.type === 'health.check').length,
      ).toBeLessThanOrEqual(11);
    });
  });

  // Long enough that a dropped client's first reconnect (0.25–2.5 s later) always lands inside the used-up window.
  describe('windows', { timeout: 60_000 }, () => {
    const WINDOW_MS = 6_000;
    const env = useContractEnv({
      config: { rateLimits: { windowMs: WINDOW_MS, perUser: { sendMessage: 2, connect: 2 } } },
    });

    it('a limited user can send again once the window has passed', async () => {
      const id = uniqueId('cho-doi');
      const client = await connectUser(env(), id);
      const channel = await watchChannel(client, 'messaging', uniqueId('cho'), { members: [id] });
      await sendText(channel, 'một');
      await sendText(channel, 'hai');
      let refusal: unknown;
      await sendText(channel, 'ba').catch((error: unknown) => (refusal = error));
      expect(readStreamError(refusal)).toMatchObject({ code: 9, status: 429 });
      const { reset } = rateLimitOf(refusalHeaders(refusal));
      expect(reset).toBeLessThanOrEqual(Math.ceil((Date.now() + WINDOW_MS) / 1000));

      const message = await untilNotRateLimited(() => sendText(channel, 'bốn'), WINDOW_MS * 3);

      expect(message.text).toBe('bốn');
    });

    it('a client whose reconnect is rate-limited backs off and recovers by itself after the window', async () => {
      const id = uniqueId('mat-mang');
      const failures: string[] = [];
      const client = await connectUser(env(), id, {
        options: {
          logger: (_level, message) => {
            if (message.includes('WS failed with code 9')) failures.push(message);
          },
        },
      });
      // A second session uses up the user's handshakes for this window.
      const second = await connectUser(env(), id);
      await second.disconnectUser();

      const recovered = waitForEvent(client, 'connection.recovered', () => true, WINDOW_MS * 6);
      // The network drops: the client reconnects, is refused, and must try again later on its own.
      (client.wsConnection!.ws as unknown as WebSocket).terminate();
      await recovered;

      expect(failures.length).toBeGreaterThan(0);
      expect(client.wsConnection?.isHealthy).toBe(true);
    });
  });
});
