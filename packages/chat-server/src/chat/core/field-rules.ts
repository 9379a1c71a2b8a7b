import { chatError } from '../../errors.ts';
import type { JsonObject } from './json.ts';

/**
 * Limits on what users and channels show to everyone else: names, avatars, custom data. Every write path (websocket
 * connect, guest creation, user upsert and partial update, channel create, update and partial update) goes through
 * these, for clients and the server alike, so a stored value is always safe to render.
 */

/** Display names (user and channel), counted in Unicode code points after trimming. */
export const MAX_NAME_CHARS = 100;
export const MAX_URL_CHARS = 2048;
/** Stream's documented cap on custom data per object. */
export const MAX_CUSTOM_BYTES = 5120;
/** Stream's documented cap on members added, removed or promoted by one request. */
export const MAX_MEMBERS_PER_REQUEST = 100;

/**
 * C0 and C1 controls (NUL, newlines, escape…), the line and paragraph separators, and the bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069) that let a name reverse the text shown after it.
 */
function isForbiddenCodePoint(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function hasForbiddenCharacter(value: string): boolean {
  for (const char of value) if (isForbiddenCodePoint(char.codePointAt(0)!)) return true;
  return false;
}

/** Short single-line text (a name, a team): trimmed; empty becomes null. Refused with code 4 when unsafe. */
export function readLabel(value: unknown, what: string, maxChars = MAX_NAME_CHARS): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw chatError.input(`${what} must be a string`);
  if (hasForbiddenCharacter(value))
    throw chatError.input(`${what} must not contain control or bidirectional override characters`);
  const trimmed = value.trim();
  if ([...trimmed].length > maxChars)
    throw chatError.input(`${what} must be at most ${maxChars} characters`);
  return trimmed === '' ? null : trimmed;
}

/** An image address: an absolute http(s) URL, never `javascript:`, `data:` or a relative path. Empty clears it. */
export function readImageUrl(value: unknown, what: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') throw chatError.input(`${what} must be a string`);
  if (value.length > MAX_URL_CHARS)
    throw chatError.input(`${what} must be at most ${MAX_URL_CHARS} characters`);
  if (hasForbiddenCharacter(value) || /\s/.test(value))
    throw chatError.input(`${what} must be an http(s) URL`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw chatError.input(`${what} must be an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw chatError.input(`${what} must be an http(s) URL`);
  return value;
}

/** Custom data as it will be stored (after a merge too): never above Stream's 5 KiB. */
export function assertCustomSize(custom: JsonObject, what: string): void {
  if (Buffer.byteLength(JSON.stringify(custom)) > MAX_CUSTOM_BYTES)
    throw chatError.input(`${what} custom data is too large (max ${MAX_CUSTOM_BYTES} bytes)`);
}
