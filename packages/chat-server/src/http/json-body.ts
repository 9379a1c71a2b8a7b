import type { FastifyInstance } from 'fastify';
import { parseJsonInput } from '../chat/core/json.ts';
import { chatError } from '../errors.ts';

/**
 * The chat routes' JSON body parser: Fastify's own would let a body nested thousands of levels deep through to
 * handlers that walk it recursively. This one applies the same limits as every other JSON input
 * (`JSON_INPUT_LIMITS` in chat/json.ts) and fails with code 4. The route's body limit still applies first. An empty
 * body reads as `{}`.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    // Stream's server-side SDKs send every DELETE with this content-type and no body: Stream reads it as `{}`.
    if (text.trim().length === 0) {
      done(null, {});
      return;
    }
    try {
      done(null, parseJsonInput(text, 'the request body'));
    } catch (error) {
      done(error as Error);
    }
  });
  // stream-chat's POSTs without data (client.stopCampaign) go out as an empty form body: read as `{}` like an empty
  // JSON body. A form body with content is still refused, as before.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      if ((body as string).trim().length === 0) done(null, {});
      else done(chatError.input('unsupported content-type'));
    },
  );
}
