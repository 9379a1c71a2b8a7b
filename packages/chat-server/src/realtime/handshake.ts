import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { authenticate } from '../auth/authenticate.ts';
import { assertUserId } from '../chat/core/users/service.ts';
import type { UserRow } from '../chat/core/users/repo.ts';
import { parseJsonInput, type JsonObject } from '../chat/core/json.ts';
import { chatError } from '../errors.ts';
import { parseInput } from '../http/route.ts';
import { jsonObject, queryValue } from '../http/schemas.ts';
import type { ChatRuntime } from '../runtime.ts';

/**
 * The `/connect` query string as stream-chat builds it (node_modules/stream-chat/src/connection.ts `_buildUrl`):
 * credentials travel here because a browser cannot set headers on a websocket upgrade. Other keys (the client's
 * `X-Stream-Client`, `wsUrlParams`) pass through unread.
 */
export const connectQuery = z.looseObject({
  api_key: queryValue,
  authorization: queryValue,
  'stream-auth-type': queryValue,
  /** The JSON text of `handshakePayload`, decoded only once the credentials are known to be good. */
  json: queryValue,
});

/** What the client puts in `?json=` (stream-chat's `_buildWSPayload`). */
export const handshakePayload = z.looseObject(
  {
    user_id: z.string().nullish(),
    user_details: jsonObject.nullish(),
    device: jsonObject.nullish(),
    client_request_id: z.string().nullish(),
  },
  { error: 'must be an object' },
);

const QUERY = 'the query string';
const PAYLOAD = 'the json query parameter';

export interface Handshake {
  userId: string;
  details: JsonObject;
  role: string;
  anonymous: boolean;
  appId: string;
  guestsEnabled: boolean;
}

/**
 * Checks in the order the client sees their errors: the credentials first (a bad token is code 43 whatever the
 * payload holds), then the payload, then whether the token may open a socket for the user it claims.
 */
export function parseHandshake(runtime: ChatRuntime, rawQuery: unknown): Handshake {
  const query = parseInput(connectQuery, rawQuery ?? {}, QUERY);
  const identity = authenticate(
    runtime.apps,
    runtime.tokens,
    { apiKey: query.api_key, authType: query['stream-auth-type'], token: query.authorization },
    Math.floor(Date.now() / 1000),
  );
  const payload = parseInput(handshakePayload, parseJsonInput(query.json ?? '', PAYLOAD), PAYLOAD);
  const details = payload.user_details ?? {};
  const claimed = payload.user_id ?? (typeof details.id === 'string' ? details.id : undefined);
  const app = { appId: identity.app.id, guestsEnabled: identity.app.guests.enabled };
  if (identity.kind === 'anonymous') {
    // Never the claimed id: the socket would receive that user's events. `!` is outside the user id alphabet, so
    // an anonymous socket cannot share a user's topic, and each one counts as its own watcher.
    const userId = `!anon-${randomUUID()}`;
    return { userId, details: {}, role: 'anonymous', anonymous: true, ...app };
  }
  if (identity.kind === 'server')
    throw chatError.auth('server tokens cannot open a websocket connection');
  if (claimed !== undefined && claimed !== identity.userId) {
    throw chatError.auth(`the token is for user ${identity.userId}, not ${claimed}`);
  }
  assertUserId(identity.userId);
  return { userId: identity.userId, details, role: 'user', anonymous: false, ...app };
}

/** Switching guests off ends existing guest sessions too, whatever their tokens say. */
export function assertGuestAllowed(handshake: Handshake, row: UserRow): UserRow {
  if (row.role === 'guest' && !handshake.guestsEnabled)
    throw chatError.notAllowed('guest users are disabled for this app');
  return row;
}
