import type { FastifyInstance } from 'fastify';
import { authenticate } from '../auth/authenticate.ts';
import type { Actor } from '../chat/core/access/access.ts';
import { isPlainObject } from '../chat/core/json.ts';
import { chatError } from '../errors.ts';
import type { ChatRuntime } from '../runtime.ts';
import { ANONYMOUS_ROUTES } from './anonymous-routes.ts';
import { queryOf } from './params.ts';
import { setRequestContext } from './context.ts';
import { bypassesRestHooks, routeKey } from './route-key.ts';

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Authenticates every REST request from the query `api_key` and the `Authorization` / `stream-auth-type`
 * headers (bare JWT, no Bearer prefix). Server tokens act for the user named in the body, if any; a user token acts
 * for its own user only; an anonymous caller is nobody: whatever `user_id` it sends is ignored, and it reaches only
 * the read routes of ANONYMOUS_ROUTES.
 */
export function installAuthHook(app: FastifyInstance, runtime: ChatRuntime): void {
  const prefix = app.prefix;
  app.addHook('preHandler', async (request) => {
    if (bypassesRestHooks(request)) return;
    const query = queryOf(request.query);
    const authorization = headerValue(request.headers.authorization);
    const identity = authenticate(
      runtime.apps,
      runtime.tokens,
      {
        apiKey: query.api_key,
        authType: headerValue(request.headers['stream-auth-type']),
        token: authorization?.startsWith('Bearer ') ? authorization.slice(7) : authorization,
      },
      Math.floor(Date.now() / 1000),
    );
    const connectionId = query.connection_id ?? null;
    let actor: Actor;
    if (identity.kind === 'server') {
      const body = isPlainObject(request.body) ? request.body : {};
      const named =
        typeof body.user_id === 'string'
          ? body.user_id
          : isPlainObject(body.user) && typeof body.user.id === 'string'
            ? body.user.id
            : query.user_id;
      actor = {
        appId: identity.app.id,
        userId: named ?? null,
        role: 'admin',
        isServer: true,
        connectionId,
      };
    } else if (identity.kind === 'anonymous') {
      const route = routeKey(request, prefix);
      // No route matched (routeOptions.url is unset): the not-found handler answers code 16 naming the path.
      if (request.routeOptions.url !== undefined && !ANONYMOUS_ROUTES.has(route))
        throw chatError.notAllowed(`anonymous users cannot call ${route}; connect as a user`);
      actor = {
        appId: identity.app.id,
        // The client sends its random anonymous id as user_id; trusting it would let anyone act as anyone.
        userId: null,
        role: 'anonymous',
        isServer: false,
        connectionId,
      };
    } else {
      if (query.user_id !== undefined && query.user_id !== identity.userId) {
        throw chatError.auth(`the token is for user ${identity.userId}, not ${query.user_id}`);
      }
      const role = await runtime.services.users.roleOf(identity.app.id, identity.userId);
      // Switching guests off ends existing guest sessions too, whatever their tokens say.
      if (role === 'guest' && !identity.app.guests.enabled)
        throw chatError.notAllowed('guest users are disabled for this app');
      actor = {
        appId: identity.app.id,
        userId: identity.userId,
        role,
        isServer: false,
        connectionId,
      };
    }
    setRequestContext(request, { app: identity.app, actor });
  });
}
