import { chatError } from '../../../errors.ts';

export const THUMB_PREFIX = 'thumb-';

/** The router answers 414 for a path segment over 100 characters (Fastify's maxParamLength), thumbnails included. */
const MAX_NAME_LENGTH = 100 - THUMB_PREFIX.length;
const MAX_KEPT_EXTENSION = 16;

function shortenName(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= MAX_KEPT_EXTENSION ? name.slice(dot) : '';
  return name.slice(0, MAX_NAME_LENGTH - extension.length).replace(/[.-]+$/, '') + extension;
}

/**
 * A name safe on every filesystem and in a URL path, keeping the extension. Upload rules are checked on this name,
 * never on the raw one: full-width letters, accents and trailing dots or spaces all fold into what is served.
 */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '');
  return shortenName(cleaned) || 'file';
}

/** RFC 9110 token characters: anything else could not be sent back as a Content-Type header. */
const MIME_TYPE = /^[a-z0-9!#$%&'*+.^_`|~-]+\/[a-z0-9!#$%&'*+.^_`|~-]+$/;

/** The declared type without parameters or case, as rules compare it and as it is served. */
export function normalizeMimeType(declared: string): string {
  const essence = (declared.split(';')[0] ?? '').trim().toLowerCase();
  if (!essence) return 'application/octet-stream';
  if (!MIME_TYPE.test(essence)) throw chatError.input('the file has an invalid content type');
  return essence;
}

/** `…/uploads/<app>/<file id>/<name>` of this server → the ids, or undefined for any other URL. */
export function parseUploadURL(url: string): { appId: string; fileId: string } | undefined {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://x').pathname;
  } catch {
    return undefined;
  }
  const match = /\/uploads\/([^/]+)\/([^/]+)\/[^/]+$/.exec(pathname);
  if (!match) return undefined;
  try {
    return { appId: decodeURIComponent(match[1]!), fileId: match[2]! };
  } catch {
    return undefined;
  }
}
