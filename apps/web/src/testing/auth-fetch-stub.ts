import { vi } from 'vitest';

/** A response better-auth's server would send, for the third-party client under test. */
export interface StubbedAuthResponse {
  status: number;
  body: unknown;
}

export type AuthRoute = 'sign-in/email' | 'sign-up/email' | 'sign-out';

/**
 * Replaces fetch for better-auth's endpoints only. Any other request (our own /api) fails the test, since
 * component tests must not stand in for our server; the browser suite covers the real one.
 */
export function stubAuthFetch(
  answer: (
    route: AuthRoute,
    body: Record<string, unknown>,
  ) => StubbedAuthResponse | Promise<StubbedAuthResponse>,
) {
  const calls: { route: AuthRoute; body: Record<string, unknown> }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    const match = /^\/api\/auth\/(sign-in\/email|sign-up\/email|sign-out)$/.exec(url.pathname);
    if (!match) throw new Error(`Unexpected request in a component test: ${url.pathname}`);
    const route = match[1] as AuthRoute;
    const raw = input instanceof Request ? await input.text() : init?.body;
    const body = typeof raw === 'string' && raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    calls.push({ route, body });
    const { status, body: responseBody } = await answer(route, body);
    return new Response(JSON.stringify(responseBody), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
