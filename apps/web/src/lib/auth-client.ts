import { createAuthClient } from 'better-auth/react';

// better-auth captures `fetch` when the client is created; calling through keeps the current global
// (tests replace it), and the origin is explicit so the client never guesses from build-time env.
export const authClient = createAuthClient({
  baseURL: window.location.origin,
  fetchOptions: {
    customFetchImpl: (input, init) => fetch(input, init),
  },
});
