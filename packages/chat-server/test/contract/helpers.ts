import { randomUUID } from 'node:crypto';
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

// The one fixtures module for real-client tests: error readers, raw HTTP and raw sockets live next door and are
// imported from here.
export * from './raw-http.ts';
export * from './raw-socket.ts';

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

/** The fixtures around a server started elsewhere (e.g. one node of a cluster); closing the server stays the caller's. */
export function contractEnvOn(server: TestChatServer): ContractEnv {
  const admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
  return { server, admin, clients: new Set() };
}

export async function startContractEnv(options?: ServerOptions): Promise<ContractEnv> {
  return contractEnvOn(await startTestChatServer(options));
}

/** Disconnects every client the fixtures created, leaving the server running. */
export async function disconnectClients(env: ContractEnv): Promise<void> {
  await Promise.allSettled([...env.clients].map((client) => client.disconnectUser(500)));
  env.clients.clear();
}

export async function stopContractEnv(env: ContractEnv): Promise<void> {
  await disconnectClients(env);
  await env.server.close();
}

/**
 * One real server per test file, started before the first test and closed (with every client) after the last.
 * Pass a function when the options depend on something an earlier `beforeAll` starts (a local page server's port).
 */
export function useContractEnv(options?: ServerOptions | (() => ServerOptions)): () => ContractEnv {
  return useForSuite(
    'The contract server is not running: call useContractEnv()',
    () => startContractEnv(typeof options === 'function' ? options() : options),
    stopContractEnv,
  );
}

/**
 * What `start` makes, for the tests of the enclosing describe block: started before them, stopped after them. The
 * getter returns it, or names the call (`what`) that was not made inside the block.
 */
export function useForSuite<T>(
  what: string,
  start: () => Promise<T>,
  stop: (value: T) => Promise<void>,
): () => T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await start();
  }, 30_000);
  afterAll(async () => {
    if (value !== undefined) await stop(value);
  }, 30_000);
  return () => {
    if (value === undefined) throw new Error(`${what} inside the describe block.`);
    return value;
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

/**
 * Polls `check` until it holds, bounded: for what no client event announces (a row written after a socket closed,
 * state another node learns over Redis).
 */
export async function eventually(
  check: () => Promise<boolean>,
  description: string,
  timeoutMs = EVENT_TIMEOUT_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The ISO timestamp `ms` from now (negative for the past), for remind_at, end_at and other future times. */
export function inMs(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
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

/** A user to connect: an id prefix (the id gets a unique suffix), optionally with user fields. */
export type UserSpec = string | { prefix: string; user?: ConnectExtra['user'] };

export interface ConnectedUser {
  id: string;
  client: StreamChat;
}

/** Connects one fresh user per spec, each with a unique id, in order. */
export async function connectUsers(
  env: ContractEnv,
  specs: readonly UserSpec[],
): Promise<ConnectedUser[]> {
  const users: ConnectedUser[] = [];
  for (const spec of specs) {
    const { prefix, user } = typeof spec === 'string' ? { prefix: spec, user: undefined } : spec;
    const id = uniqueId(prefix);
    users.push({ id, client: await connectUser(env, id, { user }) });
  }
  return users;
}

export interface ChannelMember extends ConnectedUser {
  /** This member's own `Channel` instance, already watching. */
  channel: Channel;
}

export interface SharedChannel {
  channelId: string;
  cid: string;
  /** In the order of the specs; the first created the channel. */
  members: ChannelMember[];
}

/**
 * Connects users with unique ids; the first creates a channel with a unique id and all of them as members, then
 * every member watches it, so each one receives the others' events.
 */
export async function channelWithMembers(
  env: ContractEnv,
  prefix: string,
  options: { users: readonly UserSpec[]; type?: string; data?: ChannelData },
): Promise<SharedChannel> {
  const type = options.type ?? 'messaging';
  const users = await connectUsers(env, options.users);
  const channelId = uniqueId(prefix);
  const members: ChannelMember[] = [];
  for (const [index, user] of users.entries()) {
    const data =
      index === 0 ? { ...options.data, members: users.map((member) => member.id) } : undefined;
    members.push({ ...user, channel: await watchChannel(user.client, type, channelId, data) });
  }
  return { channelId, cid: `${type}:${channelId}`, members };
}

export interface TwoMembers {
  channelId: string;
  aliceId: string;
  bobId: string;
  alice: StreamChat;
  bob: StreamChat;
  /** Alice created the channel. */
  aliceChannel: Channel;
  bobChannel: Channel;
}

/** The most common scene: alice and bob (unique ids) both watching a new messaging channel alice created. */
export async function twoMembers(
  env: ContractEnv,
  prefix: string,
  options: { data?: ChannelData; alice?: ConnectExtra['user']; bob?: ConnectExtra['user'] } = {},
): Promise<TwoMembers> {
  const { channelId, members } = await channelWithMembers(env, prefix, {
    users: [
      { prefix: `${prefix}-a`, user: options.alice },
      { prefix: `${prefix}-b`, user: options.bob },
    ],
    data: options.data,
  });
  const [alice, bob] = [nth(members, 0), nth(members, 1)];
  return {
    channelId,
    aliceId: alice.id,
    bobId: bob.id,
    alice: alice.client,
    bob: bob.client,
    aliceChannel: alice.channel,
    bobChannel: bob.channel,
  };
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

/** Nothing listens on port 9 (discard) here: every websocket attempt is refused at once. */
export const DEAD_WEBSOCKET = 'ws://127.0.0.1:9';

/**
 * A client whose websocket fails, so connectUser falls back to long-polling (stream-chat's connection_fallback.ts).
 * It waits 200 ms for the websocket before falling back (6 s by default): less than the shortest pause (250 ms,
 * stream-chat's `retryInterval`) before the client retries a refused socket. With a longer wait a retry could still be
 * connecting when the fallback closes it, and in Node the `ws` library then throws "WebSocket was closed before the
 * connection was established" from a socket whose listeners stream-chat has removed, an uncaught error.
 */
export function fallbackClient(env: ContractEnv): StreamChat {
  const client = newClient(env, { enableWSFallback: true });
  client.wsBaseURL = DEAD_WEBSOCKET;
  client.defaultWSTimeoutWithFallback = 200;
  return client;
}
