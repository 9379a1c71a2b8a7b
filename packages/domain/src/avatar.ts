/**
 * Avatars may only be files uploaded to this app's own chat server, written as a same-origin path:
 * `/chat/uploads/<app>/<file>/<name>`, optionally with the size query the chat server adds (`?oh=600&ow=800`). Every viewer's browser loads an avatar, the admin's included, so an avatar
 * must never be another site (a tracker learns who looked, and when), another scheme (`javascript:`, `data:`,
 * `blob:`…), or any other route of ours (a GET made with the viewer's cookies).
 */
export const AVATAR_PATH_PREFIX = '/chat/uploads/';
export const AVATAR_MAX_LENGTH = 512;

export const AVATAR_MESSAGE = 'Ảnh đại diện phải là ảnh đã tải lên Đạo Hữu.';

export type AvatarCheck = { ok: true; image: string | null } | { ok: false; message: string };

/**
 * The query the chat server puts on an uploaded image's URL (`?oh=600&ow=800`, its size) or Stream's CDN resize
 * parameters: a few short name=value pairs of plain characters.
 */
const QUERY = /^[a-z_]{1,16}=[A-Za-z0-9._-]{1,32}(?:&[a-z_]{1,16}=[A-Za-z0-9._-]{1,32}){0,7}$/;

/** One path segment as encodeURIComponent writes file names, without the characters that end a CSS url(). */
const SEGMENT = /^[A-Za-z0-9._~%-]+$/;

function isSafeSegment(segment: string): boolean {
  if (!SEGMENT.test(segment)) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return false;
  }
  return decoded !== '.' && decoded !== '..' && !/[/\\\p{Cc}]/u.test(decoded);
}

/** Whether `value` is an avatar path the app may show (see AVATAR_PATH_PREFIX). */
export function isAllowedAvatar(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > AVATAR_MAX_LENGTH) return false;
  if (!value.startsWith(AVATAR_PATH_PREFIX)) return false;
  const [path = '', query, ...rest] = value.slice(AVATAR_PATH_PREFIX.length).split('?');
  if (rest.length > 0 || (query !== undefined && !QUERY.test(query))) return false;
  const segments = path.split('/');
  return segments.length >= 1 && segments.every(isSafeSegment);
}

/**
 * Where the page may load an avatar from: an allowed avatar path as it is, or the path of an absolute http(s) URL when
 * that path is allowed. The chat carries avatars as absolute URLs (chat clients need them so), on whichever origin
 * the server was told is public (`PUBLIC_URL`), which need not be the one the page was opened at. The page loads the
 * path from its own origin: never another site, never another route of ours.
 */
export function avatarSource(value: unknown): string | undefined {
  if (isAllowedAvatar(value)) return value;
  if (typeof value !== 'string') return undefined;
  // Compared as text, not parsed: a URL parser would resolve `..` and escapes before the rule could see them.
  const path = ABSOLUTE.exec(value)?.[1];
  return path !== undefined && isAllowedAvatar(path) ? path : undefined;
}

/** An absolute http(s) URL: the authority runs to the first `/`, `?` or `#`; the path must follow it. */
const ABSOLUTE = /^https?:\/\/[^/?#\\]+(\/.*)$/;

/**
 * The avatar rule every path that sets an image applies: null or "" clears the avatar; anything else must be an
 * allowed avatar path.
 */
export function checkAvatar(value: unknown): AvatarCheck {
  if (value === null || value === '') return { ok: true, image: null };
  if (isAllowedAvatar(value)) return { ok: true, image: value };
  return { ok: false, message: AVATAR_MESSAGE };
}

/**
 * The letters an avatar without an image shows: the first letter of the name's last two words ("Bạch Vân" → "BV"),
 * in capitals, or "?" for a blank name. The web app's avatars and the chat page the server draws use the same rule.
 */
export function avatarInitials(name: string): string {
  const initials = name
    .trim()
    .split(/\s+/)
    .slice(-2)
    .map((word) => Array.from(word)[0] ?? '')
    .join('')
    .toLocaleUpperCase('vi-VN');
  return initials || '?';
}
