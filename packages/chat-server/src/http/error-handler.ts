import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ChatError, chatError, formatDuration, toChatError } from '../errors.ts';
import { inputErrorOf } from './route.ts';

/** Maps Fastify's own errors (body parsing, limits, validation) onto Stream codes; everything else is -1/500. */
function fromFastify(error: FastifyError): ChatError | undefined {
  const status = error.statusCode;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413)
    return chatError.payloadTooBig('request body is too large');
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError)
    return chatError.input('request body is not valid JSON');
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return chatError.input('request body is empty but content-type is application/json');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return chatError.input('unsupported content-type');
  if (status !== undefined && status >= 400 && status < 500) return chatError.input(error.message);
  return undefined;
}

/**
 * Unknown chat endpoints: code 16 / 404 in Stream's shape. Exported for a host app whose own not-found handler sees
 * requests under the chat prefix first (a wildcard route such as a static web build takes them before the chat
 * plugin's handler would).
 */
export function answerChatNotFound(request: FastifyRequest, reply: FastifyReply): void {
  const error = chatError.notFound(
    `endpoint ${request.method} ${request.url.split('?')[0]} does not exist`,
  );
  void reply.status(404).send(error.toBody(reply.elapsedTime));
}

/** The one error handler of the chat routes: Stream's error JSON, no internals leaked on 5xx. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let chat =
      error instanceof ChatError
        ? error
        : // A schema parsed outside defineRoute (a service's own) still answers code 4 naming the field.
          error instanceof z.ZodError
          ? inputErrorOf(error)
          : fromFastify(error);
    if (!chat) {
      chat = toChatError(error);
      if (chat.statusCode === 503) request.log.warn({ err: error }, 'database unavailable');
      else request.log.error({ err: error }, 'unexpected error in chat route');
    }
    const body = chat.toBody(reply.elapsedTime);
    void reply.status(chat.statusCode).send(body);
  });

  app.setNotFoundHandler(answerChatNotFound);

  // Every JSON reply carries `duration`, as Stream's do.
  app.addHook('preSerialization', async (_request, reply, payload) => {
    if (
      payload &&
      typeof payload === 'object' &&
      !Array.isArray(payload) &&
      !('duration' in payload)
    ) {
      return { ...(payload as object), duration: formatDuration(reply.elapsedTime) };
    }
    return payload;
  });
}

/**
 * For the `frameworkErrors` option of a Fastify instance serving chat: errors Fastify raises before routing (a
 * malformed percent-encoding in the path, an over-long path parameter) in Stream's shape instead of Fastify's.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const chat = fromFastify(error) ?? chatError.input('the request URL is not valid');
  void reply.status(chat.statusCode).send(chat.toBody(reply.elapsedTime));
}

/**
 * For the `clientErrorHandler` option: requests Node's HTTP parser refuses before Fastify sees them (headers or URL
 * too large, a malformed request line) are still answered in Stream's shape, then the socket is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const chat =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? chatError.input('the request headers or URL are too large')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ChatError('RequestTimeoutError', 'the request took too long to arrive')
        : chatError.input('the request is not valid HTTP');
  const body = JSON.stringify(chat.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${chat.statusCode} ${chat.statusCode === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
