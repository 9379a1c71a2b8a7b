/**
 * The only routes an anonymous caller (`stream-auth-type: anonymous`, no token) may reach: reading public
 * channels, as `connectAnonymousUser` visitors do. Everything else answers code 17 before any handler runs, so an
 * endpoint added later is closed to anonymous callers until it is listed here on purpose. Which channels are
 * readable is still decided per channel type by the `anonymous` role's grants (channel-types.ts).
 */
export const ANONYMOUS_ROUTES: ReadonlySet<string> = new Set([
  'GET /app',
  'GET /hi',
  // setGuestUser calls it with anonymous auth; the guest policy decides whether it answers.
  'POST /guest',
  'POST /channels',
  'POST /channels/:type/:id/query',
  'POST /channels/:type/:id/stop-watching',
  'GET /channels/:type/:id/messages',
  'GET /channels/:type/:id/pinned_messages',
  'GET /messages/:id',
  'GET /messages/:id/replies',
  'GET /members',
  'GET /threads/:id',
  'GET /polls/:id',
  // The long-poll fallback of connectAnonymousUser; it applies the websocket's anonymous rules (realtime/longpoll.ts).
  'GET /longpoll',
]);
