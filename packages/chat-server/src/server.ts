import Fastify, { type FastifyInstance } from 'fastify';
import type { ChatServerConfig } from './config.ts';
import { answerClientError, answerFrameworkError } from './http/error-handler.ts';
import { chatServerPlugin, type ChatServerPluginOptions } from './plugin.ts';

/** A standalone Fastify instance serving only the chat API at the root path (the CLI and the test harness). */
export async function buildChatServer(
  config: ChatServerConfig,
  options: ChatServerPluginOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: config.http.bodyLimitBytes,
    // Stream ids may contain "!" and ":"; keep default router behaviour otherwise.
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: true,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  await app.register(chatServerPlugin(config, options));
  return app;
}
