import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, RouteOptions } from 'fastify';
import {
  parseConfig,
  type ChatServerConfig,
  type ChatServerConfigInput,
  type DeepPartial,
} from '../config.ts';
import { answerClientError, answerFrameworkError } from '../http/error-handler.ts';
import type { ChatRuntime } from '../runtime.ts';
import { buildChatServer } from '../server.ts';
import { createPostgresSchema } from './postgres-schema.ts';

// Tests that build their own servers (clusters, child processes) take their schema from here too.
export { createPostgresSchema };

export interface TestChatServer {
  /** The client's baseURL, e.g. http://127.0.0.1:54321 (websocket at ws://…/connect). */
  baseURL: string;
  apiKey: string;
  apiSecret: string;
  /** Every route the chat plugin registered (method and URL, with the prefix), e.g. for fuzzing each endpoint. */
  routes: readonly ChatRoute[];
  /** Client connections (sockets) this node holds now: which node a client landed on behind a balancer. */
  socketCount(): number;
  /**
   * The running instance's internals, for tests that must place a call at an exact point between two of the
   * server's own steps (a watch between two publishes of one announcement). Throws while stopped.
   */
  runtime(): ChatRuntime;
  /** Stops and starts again on the same port and the same database (to test recovery). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface ChatRoute {
  method: string;
  /** Fastify's route pattern, e.g. /channels/:type/:id/message. */
  url: string;
}

export interface StartOptions {
  /** Mount prefix, e.g. '/chat' (then baseURL ends with it). */
  prefix?: string;
  config?: DeepPartial<ChatServerConfig>;
}

// Test runs read their database choice from the environment; the server itself only sees the parsed config.
const env = process.env;

/**
 * Starts a real chat server on 127.0.0.1 and a free port with a fresh database: a temp SQLite file by default,
 * or a fresh PostgreSQL schema when CHAT_TEST_DIALECT=postgres and TEST_DATABASE_URL are set.
 */
export async function startTestChatServer(options: StartOptions = {}): Promise<TestChatServer> {
  const cleanups: Cleanup[] = [];
  const filesDir = temporaryDir('chat-files-', cleanups);
  const config = testConfig(options, await freshDatabase(cleanups), filesDir);
  const app0 = config.apps[0]!;
  const server: RunningServer = {
    config,
    prefix: options.prefix ?? '',
    port: 0,
    app: undefined,
    routes: [],
  };
  await start(server);
  return {
    get baseURL() {
      return `http://127.0.0.1:${server.port}${server.prefix}`;
    },
    apiKey: app0.key,
    apiSecret: app0.secret,
    routes: server.routes,
    socketCount: () => server.runtime?.deps.hub.size ?? 0,
    runtime() {
      if (!server.app || !server.runtime) throw new Error('the test server is not running');
      return server.runtime;
    },
    async restart() {
      await stop(server);
      // Clients in this process keep idle keep-alive sockets to the stopped server (Node's global agent does): they
      // must see those sockets close before the next request, or it goes out on a dead one (ECONNRESET). The close
      // reaches them on the event loop's next turns; a timer this long lets several pass.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await start(server);
    },
    async close() {
      await stop(server);
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}

type Cleanup = () => Promise<void> | void;

function temporaryDir(prefix: string, cleanups: Cleanup[]): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function freshDatabase(cleanups: Cleanup[]): Promise<ChatServerConfigInput['db']> {
  if (env.CHAT_TEST_DIALECT === 'postgres') {
    const url = env.TEST_DATABASE_URL;
    if (!url) throw new Error('CHAT_TEST_DIALECT=postgres needs TEST_DATABASE_URL');
    const { schema, drop } = await createPostgresSchema(url);
    cleanups.push(drop);
    return { kind: 'postgres', url, schema, poolSize: 5 };
  }
  const dir = temporaryDir('chat-test-', cleanups);
  return { kind: 'sqlite', file: join(dir, 'chat.sqlite') };
}

/** The test's overrides over a silent server with one fresh app, the fresh database and a temp upload dir. */
function testConfig(
  options: StartOptions,
  db: ChatServerConfigInput['db'],
  filesDir: string,
): ChatServerConfig {
  const apiKey = `test-key-${randomBytes(4).toString('hex')}`;
  const apiSecret = `test-secret-${randomBytes(16).toString('hex')}`;
  const overrides = (options.config ?? {}) as Record<string, unknown>;
  // CHAT_TEST_PUBSUB=redis (with REDIS_URL) runs the same tests over Redis pub/sub, isolated by a random prefix.
  const pubsub =
    env.CHAT_TEST_PUBSUB === 'redis' && env.REDIS_URL
      ? { kind: 'redis', url: env.REDIS_URL, keyPrefix: `test:${randomBytes(4).toString('hex')}:` }
      : undefined;
  return parseConfig({
    logLevel: 'silent',
    ...overrides,
    apps: (overrides.apps as unknown[] | undefined) ?? [{ key: apiKey, secret: apiSecret }],
    db: (overrides.db as unknown) ?? db,
    ...(pubsub && !overrides.pubsub ? { pubsub } : {}),
    http: { host: '127.0.0.1', port: 0, ...((overrides.http as object | undefined) ?? {}) },
    uploads: { dir: filesDir, ...((overrides.uploads as object | undefined) ?? {}) },
  });
}

/** One test server across restarts: the same config and port, a new Fastify instance each start. */
interface RunningServer {
  config: ChatServerConfig;
  prefix: string;
  /** 0 until the first start picks a free port; restarts listen on it again. */
  port: number;
  app: FastifyInstance | undefined;
  /** Every route registered, once, whatever the number of restarts. */
  routes: ChatRoute[];
  /** The running instance, once it is ready. */
  runtime?: ChatRuntime;
}

async function start(server: RunningServer): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { chatServerPlugin } = await import('../plugin.ts');
  const onRoute = (route: RouteOptions) => recordRoute(server.routes, route);
  const onReady = (runtime: ChatRuntime) => {
    server.runtime = runtime;
  };
  if (server.prefix) {
    server.app = Fastify({
      logger: false,
      forceCloseConnections: true,
      frameworkErrors: answerFrameworkError,
      clientErrorHandler: answerClientError,
    });
    await server.app.register(chatServerPlugin(server.config, { onRoute, onReady }), {
      prefix: server.prefix,
    });
  } else {
    server.app = await buildChatServer(server.config, { onRoute, onReady });
  }
  await server.app.listen({ host: '127.0.0.1', port: server.port });
  server.port = (server.app.server.address() as AddressInfo).port;
}

function recordRoute(routes: ChatRoute[], route: RouteOptions): void {
  for (const method of [route.method].flat()) {
    if (!routes.some((known) => known.method === method && known.url === route.url))
      routes.push({ method, url: route.url });
  }
}

async function stop(server: RunningServer): Promise<void> {
  const current = server.app;
  server.app = undefined;
  if (current) await current.close();
}
