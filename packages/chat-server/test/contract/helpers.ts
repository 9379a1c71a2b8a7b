import { createHmac, randomUUID } from 'node:crypto';
import { StreamChat } from 'stream-chat';
import type {
  Channel,
  ChannelData,
  ChannelResponse,
  Event,
  EventTypes,
  Message,
  MessageResponse,
  StreamChatOptions,
  UserResponse,
} from 'stream-chat';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestChatServer } from '../../src/testing/harness.ts';
import type { TestChatServer } from '../../src/testing/harness.ts';

/** Default bound for every wait: long enough for a loaded 2-core machine, short enough to fail fast. */
export const EVENT_TIMEOUT_MS = 5_000;

export interface ContractEnv {
  server: TestChatServer;
  /** Server-side client (API key + secret): how the product backend talks to chat. */
  admin: StreamChat;
  /** Every client-side instance created here, disconnected at teardown. */
  clients: Set<StreamChat>;
}

type ServerOptions = Parameters<typeof startTestChatServer>[0];

export async function startContractEnv(options?: ServerOptions): Promise<ContractEnv> {
  const server = await startTestChatServer(options);
  const admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
  return { server, admin, clients: new Set() };
}

export async function stopContractEnv(env: ContractEnv): Promise<void> {
  await Promise.allSettled([...env.clients].map((client) => client.disconnectUser(500)));
  env.clients.clear();
  await env.server.close();
}

/** One real server per test file, started before the first test and closed (with every client) after the last. */
export function useContractEnv(options?: ServerOptions): () => ContractEnv {
  let env: ContractEnv | undefined;
  beforeAll(async () => {
    env = await startContractEnv(options);
  }, 30_000);
  afterAll(async () => {
    if (env) await stopContractEnv(env);
  }, 30_000);
  return () => {
    if (!env)
      throw new Error(
        'The contract server is not running: call useContractEnv() inside the describe block.',
      );
    return env;
  };
}

/** Ids unique per call, in Stream's allowed alphabet (a-z 0-9 @ _ -), so tests never share state. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** A client-side instance (never `getInstance`, which is a process-wide singleton). */
export function newClient(env: ContractEnv, options: StreamChatOptions = {}): StreamChat {
  const client = new StreamChat(env.server.apiKey, {
    baseURL: env.server.baseURL,
    allowServerSideConnect: true,
    ...options,
  });
  env.clients.add(client);
  return client;
}

export interface ConnectExtra {
  /** Extra user fields sent in `user_details` (name, custom data). */
  user?: Omit<Partial<UserResponse>, 'id'>;
  /** Static token; defaults to a valid token minted with the app secret. */
  token?: string;
  tokenProvider?: () => Promise<string>;
  options?: StreamChatOptions;
}

/** Connects a fresh client-side `StreamChat` as `id` over a real websocket and returns it. */
export async function connectUser(
  env: ContractEnv,
  id: string,
  extra: ConnectExtra = {},
): Promise<StreamChat> {
  const client = newClient(env, extra.options);
  await client.connectUser(
    { id, ...extra.user },
    extra.tokenProvider ?? extra.token ?? env.admin.createToken(id),
  );
  return client;
}

/** Creates (or updates) users server-side, for members who never connect. */
export async function createUsers(
  env: ContractEnv,
  users: Array<string | UserResponse>,
): Promise<void> {
  await env.admin.upsertUsers(
    users.map((user) => (typeof user === 'string' ? { id: user, name: user } : user)),
  );
}

interface EventSource {
  on(eventType: EventTypes, callback: (event: Event) => void): { unsubscribe: () => void };
}

/**
 * Resolves with the first matching event the real client dispatches. Call it BEFORE the action that triggers the
 * event. By the time it resolves the client has already applied the event to its state (listeners run after the
 * client's and the channel's own handlers), so state assertions can follow directly.
 */
export function waitForEvent(
  source: EventSource,
  type: EventTypes | EventTypes[],
  predicate: (event: Event) => boolean = () => true,
  timeoutMs = EVENT_TIMEOUT_MS,
): Promise<Event> {
  const types = Array.isArray(type) ? type : [type];
  const promise = new Promise<Event>((resolve, reject) => {
    const subscriptions = types.map((eventType) =>
      source.on(eventType, (event) => {
        if (!predicate(event)) return;
        finish();
        resolve(event);
      }),
    );
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${types.join(' | ')}`));
    }, timeoutMs);
    function finish() {
      clearTimeout(timer);
      subscriptions.forEach((subscription) => subscription.unsubscribe());
    }
  });
  // A test that throws before awaiting must not turn the later timeout into an unhandled rejection.
  promise.catch(() => undefined);
  return promise;
}

/** Resolves once `check()` holds, re-evaluated after every event the clients receive (no polling, no sleeps). */
export function waitForState(
  clients: StreamChat | StreamChat[],
  check: () => boolean,
  description: string,
  timeoutMs = EVENT_TIMEOUT_MS,
): Promise<void> {
  if (check()) return Promise.resolve();
  const sources = Array.isArray(clients) ? clients : [clients];
  const promise = new Promise<void>((resolve, reject) => {
    const subscriptions = sources.map((client) =>
      client.on('all', () => {
        if (!check()) return;
        finish();
        resolve();
      }),
    );
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`Timed out after ${timeoutMs} ms waiting until ${description}`));
    }, timeoutMs);
    function finish() {
      clearTimeout(timer);
      subscriptions.forEach((subscription) => subscription.unsubscribe());
    }
  });
  promise.catch(() => undefined);
  return promise;
}

/** Waits for wall-clock time itself (token or pin expiry): the only condition no event announces. */
export async function waitUntilTime(epochMs: number): Promise<void> {
  const delay = epochMs - Date.now();
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
}

/** Watches a channel as `client` and returns it (get-or-create). */
export async function watchChannel(
  client: StreamChat,
  type: string,
  id: string,
  data: ChannelData = {},
): Promise<Channel> {
  const channel = client.channel(type, id, data);
  await channel.watch();
  return channel;
}

/**
 * Creates a channel server-side on behalf of `createdById`, as the product backend does for public sect channels
 * (users may not create livestream channels themselves).
 */
export async function createChannelAsServer(
  env: ContractEnv,
  type: string,
  id: string,
  createdById: string,
  data: ChannelData = {},
): Promise<void> {
  await env.admin.channel(type, id, { ...data, created_by_id: createdById }).create();
}

/** Sends a text message with a client-generated id, as stream-chat-react does. */
export async function sendText(
  channel: Channel,
  text: string,
  extra: Message = {},
): Promise<MessageResponse> {
  const response = await channel.sendMessage({ id: randomUUID(), text, ...extra });
  return response.message;
}

export interface StreamErrorShape {
  code: number | null;
  status?: number;
  message: string;
}

/** Reads the Stream error code from a REST `ErrorFromResponse` or a websocket connect rejection. */
export function readStreamError(error: unknown): StreamErrorShape {
  if (!(error instanceof Error)) throw new Error(`Expected an Error, got ${String(error)}`);
  const withCode = error as Error & { code?: unknown; status?: unknown };
  if (typeof withCode.code === 'number' || withCode.code === null) {
    return {
      code: withCode.code,
      status: typeof withCode.status === 'number' ? withCode.status : undefined,
      message: error.message,
    };
  }
  // connectUser rejects with Error(JSON.stringify({code, StatusCode, message, isWSFailure})).
  try {
    const parsed = JSON.parse(error.message) as {
      code?: number;
      StatusCode?: number;
      message?: string;
    };
    return {
      code: parsed.code ?? null,
      status: parsed.StatusCode,
      message: parsed.message ?? error.message,
    };
  } catch {
    return { code: null, message: error.message };
  }
}

/** Awaits a rejected client call and checks its Stream error code (and HTTP status when given). */
export async function expectStreamError(
  promise: Promise<unknown>,
  expected: { code: number | number[]; status?: number; message?: RegExp },
): Promise<StreamErrorShape> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, 'the call should have been rejected').toBeInstanceOf(Error);
  const shape = readStreamError(caught);
  const codes = Array.isArray(expected.code) ? expected.code : [expected.code];
  expect(codes, `unexpected error: ${shape.message}`).toContain(shape.code);
  if (expected.status !== undefined) expect(shape.status).toBe(expected.status);
  if (expected.message) expect(shape.message).toMatch(expected.message);
  return shape;
}

/** Signs an HS256 JWT by hand, for tokens the client library would refuse to mint (forged, foreign secret). */
export function signJwt(payload: Record<string, unknown>, secret: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** Replaces a valid token's payload while keeping its (now wrong) signature. */
export function forgeToken(validToken: string, payload: Record<string, unknown>): string {
  const [head, , signature] = validToken.split('.');
  return `${head}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
}

export interface RawRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Acting user: sent as `user_id`, and a valid token is minted for it unless `token` is given. */
  userId?: string;
  /** `null` sends no Authorization header at all. */
  token?: string | null;
  query?: Record<string, string>;
  /** Objects are JSON-encoded; strings are sent verbatim (for malformed JSON). */
  body?: string | object;
  headers?: Record<string, string>;
}

export interface RawResponse {
  status: number;
  body: unknown;
}

/** A raw HTTP call with the query params and headers the real client sends, to reach the server with bad input. */
export async function rawRequest(env: ContractEnv, request: RawRequest): Promise<RawResponse> {
  const url = new URL(`${env.server.baseURL}${request.path}`);
  url.searchParams.set('api_key', env.server.apiKey);
  if (request.userId) url.searchParams.set('user_id', request.userId);
  for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);

  const token =
    request.token === undefined && request.userId
      ? env.admin.createToken(request.userId)
      : request.token;
  const headers: Record<string, string> = {
    'stream-auth-type': token ? 'jwt' : 'anonymous',
    'X-Stream-Client': 'stream-chat-js-v9.53.0-node|client_bundle=node-cjs',
    'x-client-request-id': randomUUID(),
    ...request.headers,
  };
  if (token) headers.Authorization = token;
  let body: string | undefined;
  if (request.body !== undefined) {
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    headers['Content-Type'] ??= 'application/json';
  }

  const response = await fetch(url, { method: request.method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left as text: the assertion on the body shape reports it
  }
  return { status: response.status, body: parsed };
}

/** Asserts Stream's error JSON: `{code, message, StatusCode, duration}` with the given code and HTTP status. */
export function expectStreamErrorBody(response: RawResponse, code: number, status: number): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({
    code,
    StatusCode: status,
    message: expect.any(String),
    duration: expect.any(String),
  });
}

/** What every REST `channel` object must carry for the UI to keep working (docs/compatibility.md, Channels). */
export function expectFullChannel(channel: ChannelResponse | undefined): void {
  expect(channel, 'channel object').toBeDefined();
  if (!channel) return;
  expect(channel.cid).toBe(`${channel.type}:${channel.id}`);
  expect(Array.isArray(channel.own_capabilities), `own_capabilities on ${channel.cid}`).toBe(true);
  expect(channel.own_capabilities?.length ?? 0).toBeGreaterThan(0);
  expect(channel.config, `config on ${channel.cid}`).toMatchObject({
    typing_events: expect.any(Boolean),
    read_events: expect.any(Boolean),
    reactions: expect.any(Boolean),
    replies: expect.any(Boolean),
  });
}

/** Message ids in a client-state or response list, in order. */
export function ids(messages: ReadonlyArray<{ id: string }>): string[] {
  return messages.map((message) => message.id);
}

/** `items[index]`, failing loudly instead of yielding undefined. */
export function nth<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined)
    throw new Error(`Expected an item at index ${index}, got ${items.length} items`);
  return item;
}
