import {
  LAST_CHANNEL_COOKIE,
  lastChannelCookieValue,
  parseCid,
  type ChannelRef,
} from '@daohuu/domain';
import * as React from 'react';
import { channelFromParams, type ChannelTarget } from '../utils/chat-paths';

/** Where the channel a cultivator last had open is kept, one entry per chat user id on this browser. */
export const LAST_CHANNEL_KEY_PREFIX = 'dh:kenh-gan-nhat:';

function keyFor(userId: string): string {
  return `${LAST_CHANNEL_KEY_PREFIX}${userId}`;
}

const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

function writeCookie(value: string, maxAgeSeconds: number): void {
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `${LAST_CHANNEL_COOKIE}=${value}; path=/chat; max-age=${maxAgeSeconds}; samesite=lax${secure}`;
}

/** The cid kept for `userId`, or null (none, malformed, or localStorage unavailable as in private mode). */
export function readLastChannel(userId: string): ChannelTarget | null {
  let cid: string | null;
  try {
    cid = window.localStorage.getItem(keyFor(userId));
  } catch {
    return null;
  }
  return cid ? parseCid(cid) : null;
}

/** Keeps `cid` as the user's last channel; silently does nothing where storage is refused. */
export function rememberLastChannel(userId: string, cid: string): void {
  writeCookie(lastChannelCookieValue(userId, cid), COOKIE_MAX_AGE_SECONDS);
  try {
    window.localStorage.setItem(keyFor(userId), cid);
  } catch {
    // Reopening the last channel is a convenience; /chat then opens the default channel.
  }
}

/** Forgets the user's last channel when it is `cid` (it turned out to be gone or no longer readable). */
export function forgetLastChannel(userId: string, cid: string): void {
  if (
    document.cookie
      .split('; ')
      .includes(`${LAST_CHANNEL_COOKIE}=${lastChannelCookieValue(userId, cid)}`)
  ) {
    writeCookie('', 0);
  }
  try {
    if (window.localStorage.getItem(keyFor(userId)) === cid) {
      window.localStorage.removeItem(keyFor(userId));
    }
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/**
 * Keeps the channel the URL names as the user's last one once it opens, and forgets it when it turns out to be
 * missing. Nothing for guests (no `userId`).
 */
export function useRememberLastChannel(
  userId: string | undefined,
  cid: string | null,
  missing: boolean,
): void {
  React.useEffect(() => {
    if (!userId || !cid) return;
    if (missing) forgetLastChannel(userId, cid);
    else rememberLastChannel(userId, cid);
  }, [userId, cid, missing]);
}

/**
 * The channel /chat opens on a wide screen when the address names none: the one the cultivator last had open, kept
 * on this browser (`kept`), else the first public sect channel (`fallback`, also where a kept channel that is gone
 * sends them). Guests (no `userId`) have nothing kept.
 */
export function defaultChannel(
  userId: string | undefined,
  publicChannels: readonly ChannelRef[],
): { kept: ChannelTarget | null; fallback: ChannelTarget | null } {
  const first = publicChannels[0];
  return {
    kept: userId ? readLastChannel(userId) : null,
    fallback: first ? channelFromParams(first) : null,
  };
}
