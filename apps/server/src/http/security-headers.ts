import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/** The stream-chat client's own default base URL, where the browser talks to chat in hosted mode. */
export const STREAM_DEFAULT_BASE_URL = 'https://chat.stream-io-api.com';

/** A Host header we are willing to repeat inside the policy: a name or address and a port, nothing else. */
const SAFE_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The websocket origins of an http(s) origin: the stream-chat client swaps the scheme for its /connect URL. */
function websocketOrigins(origin: string): string[] {
  const url = new URL(origin);
  return [`ws://${url.host}`, `wss://${url.host}`];
}

/**
 * Where the browser's chat client connects: in embedded mode this server (the page's own host, which `GET
 * /api/chat/config` hands out as the base URL, plus PUBLIC_URL), in hosted mode Stream's API.
 */
function chatConnectSources(config: Config, request: FastifyRequest): string[] {
  if (config.chat.mode === 'hosted') {
    const origin = new URL(config.chat.baseURL ?? STREAM_DEFAULT_BASE_URL).origin;
    return [origin, ...websocketOrigins(origin)];
  }
  const sources = websocketOrigins(config.publicUrl);
  const host = request.host;
  if (host && SAFE_HOST.test(host)) sources.push(`ws://${host}`, `wss://${host}`);
  return [...new Set(sources)];
}

/**
 * The app's Content-Security-Policy. Scripts only from this origin (no inline script, no eval): an injected
 * `<script>` or `javascript:` URL does not run. Styles allow 'unsafe-inline' because the chat UI's toasts and scroll
 * locks inject `<style>` elements at run time. Images and media also come from any https origin, for link previews
 * of other sites and uploads on a CDN (hosted chat); `data:` is the sect emblems, `blob:` the local preview of a
 * file being attached. The page may not be framed anywhere (clickjacking).
 */
export function contentSecurityPolicy(config: Config, request: FastifyRequest): string {
  const self = `'self' ${config.publicUrl}`;
  return [
    `default-src 'self'`,
    `script-src 'self'`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src ${self} data: blob: https:`,
    `media-src ${self} blob: https:`,
    `font-src 'self' data:`,
    `connect-src ${self} ${chatConnectSources(config, request).join(' ')}`,
    `worker-src 'self' blob:`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

/**
 * Security headers on every response of this server: pages, /api and the embedded chat at /chat. A header a route
 * already set is kept: the chat's uploaded files carry a stricter policy of their own. HSTS only when PUBLIC_URL is
 * https, since browsers ignore it over plain http and a LAN install must stay reachable.
 */
export function installSecurityHeaders(app: FastifyInstance, config: Config): void {
  const fixed: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    ...(config.publicUrl.startsWith('https://')
      ? { 'strict-transport-security': 'max-age=31536000' }
      : {}),
  };
  app.addHook('onSend', async (request, reply, payload) => {
    for (const [name, value] of Object.entries(fixed)) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', contentSecurityPolicy(config, request));
    }
    return payload;
  });
}
