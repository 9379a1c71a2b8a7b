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
  const apiKey = `test-key-${randomBytes(4).toString('hex')}`;
  const apiSecret = `test-secret-${randomBytes(16).toString('hex')}`;
  const cleanups: (() => Promise<void> | void)[] = [];
  let db: ChatServerConfigInput['db'];
  const filesDir = mkdtempSync(join(tmpdir(), 'chat-files-'));
  cleanups.push(() => rmSync(filesDir, { recursive: true, force: true }));
  if (env.CHAT_TEST_DIALECT === 'postgres') {
    const url = env.TEST_DATABASE_URL;
    if (!url) throw new Error('CHAT_TEST_DIALECT=postgres needs TEST_DATABASE_URL');
    const { schema, drop } = await createPostgresSchema(url);
    cleanups.push(drop);
    db = { kind: 'postgres', url, schema, poolSize: 5 };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'chat-test-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    db = { kind: 'sqlite', file: join(dir, 'chat.sqlite') };
  }
  const overrides = (options.config ?? {}) as Record<string, unknown>;
  // CHAT_TEST_PUBSUB=redis (with REDIS_URL) runs the same tests over Redis pub/sub, isolated by a random prefix.
  const pubsub =
    env.CHAT_TEST_PUBSUB === 'redis' && env.REDIS_URL
      ? { kind: 'redis', url: env.REDIS_URL, keyPrefix: `test:${randomBytes(4).toString('hex')}:` }
      : undefined;
  const config = parseConfig({
    logLevel: 'silent',
    ...overrides,
    apps: (overrides.apps as unknown[] | undefined) ?? [{ key: apiKey, secret: apiSecret }],
    db: (overrides.db as unknown) ?? db,
    ...(pubsub && !overrides.pubsub ? { pubsub } : {}),
    http: { host: '127.0.0.1', port: 0, ...((overrides.http as object | undefined) ?? {}) },
    uploads: { dir: filesDir, ...((overrides.uploads as object | undefined) ?? {}) },
  });
  const app0 = config.apps[0]!;
  const prefix = options.prefix ?? '';

  let port = 0;
  let app: FastifyInstance | undefined;
  const routes: ChatRoute[] = [];
  const onRoute = (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      if (!routes.some((known) => known.method === method && known.url === route.url))
        routes.push({ method, url: route.url });
    }
  };

  async function start(): Promise<void> {
    const { default: Fastify } = await import('fastify');
    const { chatServerPlugin } = await import('../plugin.ts');
    if (prefix) {
      app = Fastify({
        logger: false,
        forceCloseConnections: true,
        frameworkErrors: answerFrameworkError,
        clientErrorHandler: answerClientError,
      });
      await app.register(chatServerPlugin(config, { onRoute }), { prefix });
    } else {
      app = await buildChatServer(config, { onRoute });
    }
    await app.listen({ host: '127.0.0.1', port });
    port = (app.server.address() as AddressInfo).port;
  }

  async function stop(): Promise<void> {
    const current = app;
    app = undefined;
    if (current) await current.close();
  }

  await start();
  return {
    get baseURL() {
      return `http://127.0.0.1:${port}${prefix}`;
    },
    apiKey: app0.key,
    apiSecret: app0.secret,
    routes,
    async restart() {
      await stop();
      await start();
    },
    async close() {
      await stop();
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}
