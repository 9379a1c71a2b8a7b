import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChatUserSync } from './chat-users.ts';

const SIGN_IN_PATH = '/api/auth/sign-in/email';
const SIGN_UP_PATH = '/api/auth/sign-up/email';

type SyncKind = 'ensure' | 'refresh';

/**
 * Which successful responses change what the chat user should look like, and how to find the user's id in them:
 * better-auth's sign-in/sign-up answer `{ user: { id } }`; the profile routes answer the updated Profile.
 */
function syncFor(
  request: FastifyRequest,
): { kind: SyncKind; userIdOf: (body: unknown) => unknown } | undefined {
  const route = request.routeOptions.url;
  if (request.method === 'POST' && route === '/api/auth/*') {
    const path = request.url.split('?', 1)[0];
    if (path !== SIGN_IN_PATH && path !== SIGN_UP_PATH) return undefined;
    return { kind: 'ensure', userIdOf: (body) => field(field(body, 'user'), 'id') };
  }
  if (request.method === 'PATCH' && (route === '/api/me' || route === '/api/admin/users/:id')) {
    return { kind: 'refresh', userIdOf: (body) => field(body, 'id') };
  }
  return undefined;
}

function field(value: unknown, key: string): unknown {
  return value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

function parseJson(payload: unknown): unknown {
  const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Upserts the chat user after sign-up and sign-in (new users join the public channels) and after every change of a
 * đạo hiệu, tu vi or role (PATCH /api/me, PATCH /api/admin/users/:id). It watches the responses of those routes
 * rather than living inside them, so auth and profile code stay unaware of chat. The sync is awaited, so the chat
 * user is in step when the response arrives, but never fails the response: ChatUserSync logs and swallows errors.
 * Must be installed on the root instance before those routes are registered.
 */
export function installChatUserHooks(app: FastifyInstance, users: ChatUserSync): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 200) return payload;
    const sync = syncFor(request);
    if (!sync) return payload;
    const userId = sync.userIdOf(parseJson(payload));
    if (typeof userId !== 'string') return payload;
    await (sync.kind === 'refresh' ? users.refresh(userId) : users.ensure(userId));
    return payload;
  });
}
