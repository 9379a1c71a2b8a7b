/**
 * The cookie that mirrors, for the server, the chat channel a cultivator last had open on this browser (the web app
 * keeps it in localStorage too). The server writes that channel's latest messages into the page of /chat, so the page
 * opens on the channel the app will open. Scoped to the chat's pages (path /chat).
 */
export const LAST_CHANNEL_COOKIE = 'dh_last_channel';

/** The longest cid the chat server accepts: a type and an id of 64 characters each, and the colon between them. */
export const MAX_CID_LENGTH = 129;

/** The cookie's value: `<user id>|<cid>`, each percent-encoded (so neither can contain the separator). */
export function lastChannelCookieValue(userId: string, cid: string): string {
  return `${encodeURIComponent(userId)}|${encodeURIComponent(cid)}`;
}

function decoded(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** `{type, id, cid}` of a `type:id` cid (the id may contain colons), or null when it is not one or too long. */
export function parseCid(cid: string): { type: string; id: string; cid: string } | null {
  const colon = cid.indexOf(':');
  if (cid.length > MAX_CID_LENGTH || colon <= 0 || colon === cid.length - 1) return null;
  return { type: cid.slice(0, colon), id: cid.slice(colon + 1), cid };
}

/** The channel a cookie value keeps for `userId`, or null when it is malformed or someone else's. */
export function readLastChannelCookie(
  value: string,
  userId: string,
): { type: string; id: string; cid: string } | null {
  const parts = value.split('|');
  if (parts.length !== 2) return null;
  const [owner, cid] = parts.map(decoded);
  return owner === userId && cid ? parseCid(cid) : null;
}
