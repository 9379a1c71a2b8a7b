import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import { answerChatNotFound } from '@daohuu/chat-server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appError, errorBody } from '../errors.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="vi">
<head><meta charset="utf-8"><title>Đạo Hữu</title></head>
<body>
<h1>Ứng dụng web chưa được build</h1>
<p>Máy chủ đang chạy nhưng chưa có bản build của ứng dụng web. Hãy chạy <code>npm run build</code> (hoặc <code>npm start</code>) rồi tải lại trang.</p>
<p lang="en">The web app is not built yet: run <code>npm run build</code>, then reload.</p>
</body>
</html>
`;

/** Vite puts content-hashed files under assets/: they never change, so browsers may keep them for a year. */
function cacheControlFor(webDist: string, filePath: string): string {
  const path = relative(webDist, filePath).split(sep).join('/');
  return path.startsWith('assets/') ? IMMUTABLE : REVALIDATE;
}

function isUnder(url: string, prefix: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === prefix || path.startsWith(`${prefix}/`);
}

function isApiPath(url: string): boolean {
  return isUnder(url, '/api');
}

function acceptsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * Serves the built SPA from `webDist` and owns the not-found handler: unknown /api/* paths get 404 JSON; any other
 * GET that a browser makes for a page gets index.html (the SPA renders its own 404); a missing build gets a short
 * page saying so instead of a crash.
 */
export interface WebAppOptions {
  /** Where an embedded chat server is mounted: requests there that are not pages get its Stream-shaped 404. */
  chatPrefix?: string;
  /**
   * HTML the server writes after #root in a page under /chat (its first messages, chat/first-messages.ts), or ''.
   * Such a page is drawn for its viewer: it is never stored by a cache.
   */
  chatPageContent?: (request: FastifyRequest, reply: FastifyReply) => Promise<string>;
}

const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Sends a page written for its viewer: compressed here, as the build's own copies cannot be (a chat page with thirty
 * messages is about 20 KB, 3 KB in brotli; quality 5 takes well under a millisecond for it).
 */
function sendWrittenPage(request: FastifyRequest, reply: FastifyReply, html: string) {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  void reply
    .header('cache-control', 'no-store')
    .header('vary', 'accept-encoding')
    .type('text/html; charset=utf-8');
  if (/\bbr\b/.test(accepted)) {
    const body = brotliCompressSync(html, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: html.length },
    });
    return reply.header('content-encoding', 'br').send(body);
  }
  if (/\bgzip\b/.test(accepted)) {
    return reply.header('content-encoding', 'gzip').send(gzipSync(html));
  }
  return reply.send(html);
}

/**
 * Pages the web build writes beside index.html for the screens under a path: index.html plus hints for the screen's
 * own code, so a page opened there downloads it together with the app (apps/web/route-pages-plugin.ts).
 */
const ROUTE_PAGES: readonly { prefix: string; file: string }[] = [
  { prefix: '/chat', file: 'chat.html' },
];

/** The page file for a browser navigation to `url`: the screen's own page when the build wrote one. */
function pageFileFor(webDist: string, url: string): string {
  const route = ROUTE_PAGES.find(({ prefix }) => isUnder(url, prefix));
  return route && existsSync(join(webDist, route.file)) ? route.file : 'index.html';
}

export async function registerWebApp(
  app: FastifyInstance,
  webDist: string,
  options: WebAppOptions = {},
): Promise<void> {
  const indexFile = join(webDist, 'index.html');
  const hasDist = existsSync(webDist);
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: true,
      index: ['index.html'],
      cacheControl: false,
      // The web build writes .br and .gz copies (apps/web/precompress-plugin.ts): sent as they are, never compressed
      // per request, with `Vary: accept-encoding`.
      preCompressed: true,
      dotfiles: 'ignore',
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', cacheControlFor(webDist, filePath));
      },
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') && acceptsHtml(request);
    // The web build's wildcard route sees unknown /chat endpoints before the chat server's own not-found handler.
    if (options.chatPrefix && isUnder(request.url, options.chatPrefix) && !isPageRequest)
      return answerChatNotFound(request, reply);
    if (isApiPath(request.url) || !isPageRequest) {
      const notFound = appError.routeNotFound();
      return reply.status(404).send(errorBody(notFound.code, notFound.message));
    }
    // Checked per request, so a build made while the server runs is picked up.
    if (hasDist && existsSync(indexFile)) {
      const page = pageFileFor(webDist, request.url);
      const content =
        request.method === 'GET' && options.chatPageContent && isUnder(request.url, '/chat')
          ? await options.chatPageContent(request, reply)
          : '';
      if (content === '') return reply.header('cache-control', REVALIDATE).sendFile(page);
      const html = await readFile(join(webDist, page), 'utf8');
      // A function, not a string: `$&` or `$'` in a message must stay text, not be read as a replacement pattern.
      return sendWrittenPage(
        request,
        reply,
        html.replace(ROOT_ELEMENT, () => `${ROOT_ELEMENT}${content}`),
      );
    }
    return reply
      .status(200)
      .header('cache-control', REVALIDATE)
      .type('text/html; charset=utf-8')
      .send(NOT_BUILT_PAGE);
  });
}
