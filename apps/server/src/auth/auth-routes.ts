import { checkDaoHieu } from '@daohuu/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { appError } from '../errors.ts';
import { toWebHeaders } from '../http/to-web-headers.ts';
import type { UserChanges } from '../profile/user-changes.ts';
import type { AuthAttemptLimiter } from './auth-attempt-limiter.ts';
import { FAILURE_CODES_PER_EMAIL, translateAuthError } from './auth-errors.ts';
import type { Auth } from './create-auth.ts';

export interface AuthRoutesOptions {
  auth: Auth;
  limiter: AuthAttemptLimiter;
  /** Told of every successful sign-up and sign-in, before the response is sent. */
  users: Pick<UserChanges, 'userSignedIn'>;
}

/** Auth bodies are a few small JSON fields. */
const AUTH_BODY_LIMIT = 16 * 1024;

const EMAIL = z.email();

const SIGN_IN_PATH = '/api/auth/sign-in/email';
const SIGN_UP_PATH = '/api/auth/sign-up/email';
const CHANGE_PASSWORD_PATH = '/api/auth/change-password';

/** better-auth's code for a wrong current password on change-password. */
const WRONG_CURRENT_PASSWORD = 'INVALID_PASSWORD';

/** Response headers Fastify computes itself for the body we send. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'set-cookie']);

function parseJsonObject(
  request: FastifyRequest,
  raw: Buffer | undefined,
): Record<string, unknown> {
  const contentType = request.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) throw appError.unsupportedMediaType();
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw?.toString('utf8') ?? '');
  } catch {
    throw appError.invalidJson();
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw appError.invalidBody();
  return parsed as Record<string, unknown>;
}

/** better-auth answers a successful sign-in or sign-up with `{ token, user: { id, … } }`. */
function signedInUserId(body: Buffer): string | undefined {
  try {
    const id: unknown = (JSON.parse(body.toString('utf8')) as { user?: { id?: unknown } }).user?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

function requestUrl(request: FastifyRequest): string {
  try {
    return new URL(request.url, `${request.protocol}://${request.host || 'localhost'}`).href;
  } catch {
    throw appError.badRequest();
  }
}

/**
 * Mounts better-auth at /api/auth/*. Sign-in and sign-up pass through our rate limits and đạo hiệu validation
 * first; every better-auth error comes back in our error shape with a Vietnamese message; successful responses and
 * their cookies are passed on untouched, once a successful sign-in or sign-up has been announced to `users`.
 */
export async function authRoutes(
  app: FastifyInstance,
  { auth, limiter, users }: AuthRoutesOptions,
): Promise<void> {
  // better-auth parses its own bodies; we hand it the bytes exactly as they came.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: AUTH_BODY_LIMIT },
    (_request, body, done) => {
      done(null, body);
    },
  );

  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    bodyLimit: AUTH_BODY_LIMIT,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?', 1)[0];
      let body = Buffer.isBuffer(request.body) ? request.body : undefined;
      let email: string | undefined;
      const headers = toWebHeaders(request.headers);

      if (request.method === 'POST' && (path === SIGN_IN_PATH || path === SIGN_UP_PATH)) {
        const json = parseJsonObject(request, body);
        email = typeof json.email === 'string' ? json.email : undefined;
        limiter.admit(request.ip, email);
        // The same check better-auth makes, answered here so its generic VALIDATION_ERROR never reaches the user.
        if (!EMAIL.safeParse(email).success) throw appError.invalidEmail();
        if (typeof json.password !== 'string') throw appError.invalidPassword();
        if (path === SIGN_UP_PATH) {
          // better-auth's user hook applies the same rule (create-auth.ts); checking here first spares the password hash.
          const check = checkDaoHieu(json.name);
          if (!check.ok) throw appError.invalidName(check.message);
          body = Buffer.from(JSON.stringify({ ...json, name: check.name }));
          headers.delete('content-length');
        }
      }

      // A stolen session must not become a free oracle for the account's password: the current password asked by
      // change-password is throttled, and its failures counted, exactly like a sign-in to that account.
      let changingPasswordOf: string | undefined;
      if (request.method === 'POST' && path === CHANGE_PASSWORD_PATH) {
        const session = await auth.api.getSession({ headers });
        if (session) {
          changingPasswordOf = session.user.email;
          limiter.admit(request.ip, changingPasswordOf);
        }
      }

      // better-auth records the client IP from this header; a client must not be able to choose it.
      headers.set('x-forwarded-for', request.ip);
      const response = await auth.handler(
        new Request(requestUrl(request), {
          method: request.method,
          headers,
          body: request.method === 'POST' && body !== undefined ? new Uint8Array(body) : undefined,
        }),
      );

      for (const [name, value] of response.headers)
        if (!HOP_HEADERS.has(name)) reply.header(name, value);
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      reply.status(response.status);

      if (response.status < 400) {
        const answer = Buffer.from(await response.arrayBuffer());
        // `email` is only read on sign-in and sign-up.
        if (email !== undefined) {
          limiter.recordSuccess(request.ip, email);
          const userId = response.status === 200 ? signedInUserId(answer) : undefined;
          if (userId !== undefined) await users.userSignedIn(userId);
        }
        return reply.send(answer);
      }

      const translated = translateAuthError(response.status, await response.text());
      if (response.status >= 500) {
        request.log.error({ status: response.status }, 'better-auth answered with a server error');
        reply.status(500);
      }
      if (email !== undefined && FAILURE_CODES_PER_EMAIL.has(translated.code))
        limiter.recordFailure(request.ip, email);
      if (changingPasswordOf !== undefined && translated.code === WRONG_CURRENT_PASSWORD)
        limiter.recordFailure(request.ip, changingPasswordOf);
      return reply.type('application/json; charset=utf-8').send(translated);
    },
  });
}
