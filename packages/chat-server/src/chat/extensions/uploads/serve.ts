import type { FastifyReply, FastifyRequest } from 'fastify';
import { chatError } from '../../../errors.ts';
import type { OpenedFile } from './service.ts';
import type { ByteRange } from './store.ts';

/** Types a browser may render in place; everything else (html, svg, pdf, scripts…) is downloaded. */
const INLINE_IMAGES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
]);

export function isInlineType(mimeType: string): boolean {
  return (
    INLINE_IMAGES.has(mimeType) || mimeType.startsWith('audio/') || mimeType.startsWith('video/')
  );
}

/** One `bytes=a-b` range (the only form media elements send); null when unsatisfiable, undefined when absent. */
export function parseRange(header: string | undefined, size: number): ByteRange | null | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return null;
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return null;
  return { start, end };
}

/**
 * A file can be deleted (by its uploader, a moderator or a hard delete), so no shared cache may keep it and a browser
 * keeps it only briefly; after that it revalidates with the ETag, which costs a 304 while the file exists and gets
 * the 404 once it is gone.
 */
export const FILE_CACHE_CONTROL = 'private, max-age=300';

/** If-None-Match holds this entity tag (or `*`), weak or strong. */
function alreadyHeld(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  opened: OpenedFile,
) {
  const mimeType = opened.mimeType || 'application/octet-stream';
  const inline = isInlineType(mimeType);
  reply.header('etag', opened.etag).header('cache-control', FILE_CACHE_CONTROL);
  if (alreadyHeld(request.headers['if-none-match'], opened.etag)) return reply.code(304).send();
  reply
    .header('content-type', mimeType)
    .header('accept-ranges', 'bytes')
    .header('x-content-type-options', 'nosniff')
    // Even if a browser were tricked into rendering a file, it gets no scripts and no same-origin access.
    .header(
      'content-security-policy',
      "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
    )
    .header(
      'content-disposition',
      `${inline ? 'inline' : 'attachment'}; filename="${opened.meta.name}"`,
    );
  const range = parseRange(request.headers.range, opened.size);
  if (range === null)
    return reply.code(416).header('content-range', `bytes */${opened.size}`).send();
  // Opened before the status goes out: a store that fails now still gets a clean error answer.
  const content = await opened.content(range);
  if (!content) throw chatError.notFound('file does not exist');
  if (range === undefined) return reply.header('content-length', String(opened.size)).send(content);
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${opened.size}`)
    .header('content-length', String(range.end - range.start + 1))
    .send(content);
}
