import { join } from 'node:path';
import { answerFrameworkError, chatServerPlugin } from '@daohuu/chat-server';
import type { ChatServerConfigInput } from '@daohuu/chat-server';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appError, errorBody } from '../errors.ts';
import type { ChatCredentials, LogLevel } from '../config.ts';

/** Where the embedded chat server is mounted: the client's base URL is http://host:PORT/chat. */
export const CHAT_PREFIX = '/chat';

/** The chat server's own SQLite file: the product never reads chat tables (docs/architecture.md). */
export const CHAT_DATABASE_FILE = 'chat.db';

/** Uploaded chat files, under the data directory (a shared volume when several processes serve chat). */
export const CHAT_UPLOADS_DIR = 'uploads';

export interface EmbeddedChatOptions {
  credentials: ChatCredentials;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** host:port pairs link previews may fetch on private addresses (CHAT_LINK_PREVIEW_ALLOW_HOSTS, tests only). */
  linkPreviewAllowHosts?: string[];
  /** Reverse proxies whose X-Forwarded-For entry the chat rate limits trust (CHAT_TRUST_PROXY); default 0. */
  trustProxy?: number;
  /** PUBLIC_URL when set: upload links then start with it (https behind a TLS proxy), not with the request's host. */
  publicUrl?: string;
  logLevel: LogLevel;
}

export function embeddedChatConfig(options: EmbeddedChatOptions): ChatServerConfigInput {
  return {
    apps: [
      {
        key: options.credentials.apiKey,
        secret: options.credentials.apiSecret,
        // The realm badge comes from tu_vi, which only the product server may set.
        serverOnlyUserFields: ['tu_vi'],
      },
    ],
    db:
      options.databaseUrl === undefined
        ? { kind: 'sqlite', file: join(options.dataDir, CHAT_DATABASE_FILE) }
        : { kind: 'postgres', url: options.databaseUrl },
    pubsub:
      options.redisUrl === undefined
        ? { kind: 'memory' }
        : { kind: 'redis', url: options.redisUrl },
    uploads: { dir: join(options.dataDir, CHAT_UPLOADS_DIR) },
    ...(options.publicUrl ? { http: { publicBaseURL: `${options.publicUrl}${CHAT_PREFIX}` } } : {}),
    linkPreview: { allowHosts: options.linkPreviewAllowHosts ?? [] },
    // app.ts creates Fastify without trustProxy, so request.ip is the TCP peer; the chat server reads the header.
    ...(options.trustProxy ? { rateLimits: { trustProxy: options.trustProxy } } : {}),
    logLevel: options.logLevel,
  };
}

/**
 * Mounts packages/chat-server in this process under /chat. It keeps its own database, sockets and error format; the
 * product reaches it only over HTTP through the stream-chat server client, exactly as it would reach Stream.
 *
 * The SPA's pages under /chat (`/chat`, `/chat/:type/:id`, docs/product-rules.md §5) keep working: the chat server
 * has no GET route of that shape, so the web build's wildcard route takes them and falls back to index.html
 * (test/chat-pages.test.ts).
 */
export async function mountEmbeddedChat(
  app: FastifyInstance,
  options: EmbeddedChatOptions,
): Promise<void> {
  await app.register(chatServerPlugin(embeddedChatConfig(options)), { prefix: CHAT_PREFIX });
}

/** True for a request URL under the embedded chat server's mount point. */
export function isChatPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === CHAT_PREFIX || path.startsWith(`${CHAT_PREFIX}/`);
}

/**
 * The product server's `frameworkErrors` (a malformed percent-encoding or an over-long parameter, refused before any
 * route or hook runs): the chat server's own Stream-shaped answer under /chat when chat is embedded there, ours
 * elsewhere.
 */
export function frameworkErrorsFor(
  embedded: boolean,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    if (embedded && isChatPath(request.url)) return answerFrameworkError(error, request, reply);
    const refused = appError.badRequest();
    void reply.status(refused.statusCode).send(errorBody(refused.code, refused.message));
  };
}
