import * as React from 'react';
import { useParams } from 'react-router';
import { DESKTOP_QUERY, useMediaQuery } from '@/hooks/use-media-query';
import { useShownLanguage } from '@/i18n';

/*
 * The opening channel's messages that the server wrote into a chat page (apps/server/src/chat/first-messages.ts), on
 * screen before any of the app's code had run. React's first render fills #root, and the server's drawing sits beside
 * it; this moves the drawing into the chat's place in the page, so the messages stay on screen, with no flash of the
 * connecting state, until the app's stand-in (first-messages.tsx) or the chat screen shows its own.
 * Docs: docs/decisions/0008-web-code-splitting.md, point 15.
 */

/** The drawn channel's element, found on first use and kept until retired. */
let drawn: HTMLElement | null = null;
let retired = false;

/**
 * The server's drawing, if there is one and it shows `cid`: any channel while the opening channel is not known yet
 * (`undefined`), none when no channel opens (`null`, a phone's channel list).
 */
function drawnMessages(cid: string | null | undefined): HTMLElement | null {
  if (retired || cid === null) return null;
  drawn ??= document.querySelector<HTMLElement>('[data-early-messages]');
  if (drawn && cid !== undefined && drawn.dataset.earlyMessages !== cid) return null;
  return drawn;
}

/**
 * Drops the server's drawing for good: the app shows the channel itself now, or the chat was left. Messages read
 * when the page loaded must never come back later as if they were current.
 */
export function retireEarlyMessages(): void {
  retired = true;
  drawn?.remove();
  drawn = null;
  document.getElementById('dh-early-messages')?.remove();
}

/** Before the opening channel is known: `undefined` when some channel will open, `null` on a phone's list (/chat). */
export function opensAChannel(
  params: { type?: string; id?: string },
  isDesktop: boolean,
): undefined | null {
  return (params.type && params.id) || isDesktop ? undefined : null;
}

/**
 * The server's drawing of the opening channel in the chat's frame, or `fallback` when there is none. `cid` is the
 * channel the chat opens, or null for none; left out while that is not known yet, any channel is taken if the address
 * names one or the screen is wide (`opensAChannel`).
 */
export function EarlyMessages({
  cid,
  fallback,
  framed = true,
}: {
  cid?: string | null;
  fallback: React.ReactNode;
  /** False inside the chat screen, which is the frame itself. */
  framed?: boolean;
}) {
  const params = useParams();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const node = drawnMessages(cid === undefined ? opensAChannel(params, isDesktop) : cid);
  const language = useShownLanguage();
  const host = React.useRef<HTMLDivElement>(null);
  // Before the browser paints: the drawing never leaves the screen between React's commit and this move.
  React.useLayoutEffect(() => {
    if (node && host.current && node.parentElement !== host.current) host.current.append(node);
  }, [node]);
  // The server knows neither the viewer's time zone nor their language: it leaves the times to be written here. The
  // date formats are fetched for it (they are not part of "/"'s first load); the times were blank until now anyway.
  React.useEffect(() => {
    if (!node) return;
    let current = true;
    void import('@/i18n/format').then(({ formatDate }) => {
      if (!current) return;
      for (const time of node.querySelectorAll('time[datetime]')) {
        time.textContent = formatDate(time.getAttribute('datetime') ?? '', language, {
          hour: '2-digit',
          minute: '2-digit',
        });
      }
    });
    return () => {
      current = false;
    };
  }, [node, language]);
  if (!node) return fallback;
  return (
    <div
      ref={host}
      className={framed ? 'dh-chat-frame flex min-w-0' : 'flex h-full min-w-0'}
      aria-busy="true"
    />
  );
}
