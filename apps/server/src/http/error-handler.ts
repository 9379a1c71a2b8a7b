import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, INTERNAL_MESSAGE, appError, errorBody } from '../errors.ts';

/** Maps Fastify's own 4xx errors (body parsing, limits, static files) onto our codes and Vietnamese messages. */
function fromFastifyError(error: FastifyError): AppError | undefined {
  const status = error.statusCode;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return appError.invalidJson();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return appError.payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return appError.unsupportedMediaType();
  }
  if (error instanceof SyntaxError) return appError.invalidJson();
  if (status === 413) return appError.payloadTooLarge();
  if (status === 415) return appError.unsupportedMediaType();
  if (status === 404) return appError.routeNotFound();
  if (status === 403) return appError.forbidden();
  return new AppError(status, 'BAD_REQUEST', appError.badRequest().message);
}

/**
 * The one error handler: every error becomes `{ error: { code, message } }`. Anything we did not anticipate is
 * logged with its stack and answered 500 INTERNAL with a generic message, leaking nothing.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof AppError ? error : fromFastifyError(error);
    if (known) {
      reply.headers(known.headers);
      return reply.status(known.statusCode).send(errorBody(known.code, known.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('INTERNAL', INTERNAL_MESSAGE));
  });
}
