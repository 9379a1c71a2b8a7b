import type { FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../errors.ts';
import { toWebHeaders } from '../http/to-web-headers.ts';
import type { Auth } from './create-auth.ts';

/**
 * The signed-in user's id from the better-auth session cookie, or undefined. A refreshed session cookie that
 * better-auth hands back is forwarded, so reading the session through our routes keeps it alive like get-session.
 */
export async function readSessionUserId(
  auth: Auth,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string | undefined> {
  if (request.headers.cookie === undefined) return undefined;
  const { headers, response } = await auth.api.getSession({
    headers: toWebHeaders(request.headers),
    returnHeaders: true,
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  return response?.user.id;
}

/** Like `readSessionUserId`, but answers 401 UNAUTHENTICATED when nobody is signed in. */
export async function requireSessionUserId(
  auth: Auth,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string> {
  const userId = await readSessionUserId(auth, request, reply);
  if (userId === undefined) throw appError.unauthenticated();
  return userId;
}
