import type { FastifyError, FastifyInstance } from 'fastify';
import { ChatError, chatError, formatDuration, toChatError } from '../errors.ts';

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

/** The one error handler of the chat routes: Stream's error JSON, no internals leaked on 5xx. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let chat = error instanceof ChatError ? error : fromFastify(error);
    if (!chat) {
      chat = toChatError(error);
      if (chat.statusCode === 503) request.log.warn({ err: error }, 'database unavailable');
      else request.log.error({ err: error }, 'unexpected error in chat route');
    }
    const body = chat.toBody(reply.elapsedTime);
    void reply.status(chat.statusCode).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const error = chatError.notFound(
      `endpoint ${request.method} ${request.url.split('?')[0]} does not exist`,
    );
    void reply.status(404).send(error.toBody(reply.elapsedTime));
  });

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
