import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { seedChatDemo } from '../seed/seed-chat-demo.ts';
import { ChatApi } from './chat-api.ts';
import { loadOrCreateChatCredentials } from './chat-credentials.ts';
import { ChatUserSync } from './chat-users.ts';
import { CHAT_PREFIX } from './embedded-chat.ts';
import type { EmbeddedChatOptions } from './embedded-chat.ts';

/** The product's side of chat, one per product server (`app.chat`). */
export interface Chat {
  readonly mode: 'embedded' | 'hosted';
  readonly api: ChatApi;
  readonly users: ChatUserSync;
  /** Embedded mode: what to mount at /chat. */
  readonly embedded: EmbeddedChatOptions | undefined;
  /**
   * The step after `listen`: in embedded mode it points the chat client at this server's own loopback address and
   * seeds the demo conversation (SEED_DEMO). Runs once; later calls return the same promise. Rejects if seeding
   * fails (the caller logs it: the server keeps serving).
   */
  onListening(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    chat: Chat;
  }
}

export interface CreateChatOptions {
  config: Config;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** The listening address (`app.server.address()`). */
  address: () => AddressInfo | string | null;
}

/** http://127.0.0.1:PORT/chat for a server listening on any interface, else its own address. */
export function loopbackChatURL(address: AddressInfo | string | null): string {
  if (address === null || typeof address === 'string') {
    throw new Error('the embedded chat server needs the product server to listen on a TCP port');
  }
  const host =
    address.address === '0.0.0.0'
      ? '127.0.0.1'
      : address.address === '::'
        ? '::1'
        : address.address;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return `http://${hostPart}:${address.port}${CHAT_PREFIX}`;
}

/**
 * Resolves the chat app's credentials (hosted: the environment; embedded: the environment or DATA_DIR/secrets.json)
 * and builds the stream-chat server client and the user sync. app.ts mounts the embedded server and the routes.
 */
export function createChat({ config, db, log, address }: CreateChatOptions): Chat {
  const chatConfig = config.chat;
  const credentials =
    chatConfig.mode === 'hosted'
      ? chatConfig.credentials
      : (chatConfig.credentials ?? loadOrCreateChatCredentials(config.dataDir));
  const embedded: EmbeddedChatOptions | undefined =
    chatConfig.mode === 'embedded'
      ? {
          credentials,
          dataDir: config.dataDir,
          databaseUrl: chatConfig.databaseUrl,
          redisUrl: chatConfig.redisUrl,
          linkPreviewAllowHosts: chatConfig.linkPreviewAllowHosts,
          trustProxy: chatConfig.trustProxy,
          publicUrl: chatConfig.publicUrl,
          logLevel: config.logLevel,
        }
      : undefined;
  const api = new ChatApi({
    credentials,
    baseURL: chatConfig.mode === 'hosted' ? (chatConfig.baseURL ?? null) : undefined,
    timeoutMs: chatConfig.requestTimeoutMs,
  });
  const users = new ChatUserSync({ api, db, log, publicUrl: config.publicUrl });

  let listening: Promise<void> | undefined;
  async function afterListen(): Promise<void> {
    if (!embedded) return;
    api.attach(loopbackChatURL(address()));
    if (config.seedDemo && (await seedChatDemo({ client: api.server(), users, db, log }))) {
      log.info('Seeded the chat demo conversation (SEED_DEMO=false skips this).');
    }
  }

  return {
    mode: chatConfig.mode,
    api,
    users,
    embedded,
    onListening: () => (listening ??= afterListen()),
  };
}
