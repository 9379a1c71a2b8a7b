import {
  LAST_CHANNEL_COOKIE,
  MAX_CID_LENGTH,
  avatarInitials,
  isSectChannel,
  movedSectChannel,
  readLastChannelCookie,
  type ChannelRef,
} from '@daohuu/domain';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Auth } from '../auth/create-auth.ts';
import { FixedWindowCounter } from '../auth/fixed-window-counter.ts';
import { readSessionUserId } from '../auth/session.ts';
import type { ChatApi } from './chat-api.ts';

/*
 * The opening channel's latest messages, written into the page of a chat address (/chat, /chat/:type/:id) by the
 * server. A page opened on the chat then shows its first messages at its first paint, before any of the app's code
 * has arrived or run; the app moves them into its chat frame (apps/web/src/features/chat/components/early-messages.tsx)
 * and replaces them with its own as soon as it has read the channel. Docs: docs/decisions/0008-web-code-splitting.md,
 * point 15.
 *
 * The read is the app's own: the chat API over HTTP, as the viewer (their token, or the anonymous visitor for a
 * guest), with a query by cid that never creates a channel, so it sees exactly what the viewer's client would. Every
 * text is HTML-escaped. The page waits for it at most READ_TIMEOUT_MS, and any failure only leaves it out.
 */

/** As many as the app's stand-in lists (first-messages.tsx SHOWN_MESSAGES). */
const SHOWN_MESSAGES = 30;
/** The page waits no longer for the read: past this it is sent without the messages. */
const READ_TIMEOUT_MS = 300;
/** A token for this one read, not the app's session token. */
const READ_TOKEN_TTL_SECONDS = 60;
/** What a guest sees of a public channel is the same for every guest: one read serves them all this long. */
const GUEST_CACHE_MS = 2_000;
/**
 * A signed-in viewer's pages get their messages read this often a minute at most; past that a page is sent without
 * them. Reloading a chat page must not let one account spend the chat API's quota (in hosted mode, the app's own at
 * Stream) through the server.
 */
const USER_READS_PER_MINUTE = 30;
/** Viewers whose reads are counted at once; the oldest are forgotten first under a flood. */
const MAX_COUNTED_VIEWERS = 10_000;
/** Longer texts are cut: the frame shows a few lines of each, and the page must stay small. */
const MAX_TEXT_LENGTH = 1_000;

/** The chat route's addresses (apps/web/src/config/paths.ts). */
const CHAT_PAGE = /^\/chat(?:\/([^/]+)\/([^/]+))?\/?$/;

export interface FirstMessagesOptions {
  auth: Auth;
  api: ChatApi;
  publicChannels: readonly (ChannelRef & { name: string })[];
  log: FastifyBaseLogger;
}

/** HTML to write after the page's #root for a chat address, or '' (not a chat address, nothing to show, a failure). */
export type FirstMessagesRenderer = (
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<string>;

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function decoded(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

const KEPT_CHANNEL = new RegExp(`(?:^|;\\s*)${LAST_CHANNEL_COOKIE}=([^;]*)`);

/** The channel `userId` last had open on this browser (the web app's cookie), when the cookie is theirs. */
function keptChannel(cookieHeader: string | undefined, userId: string): ChannelRef | null {
  const value = KEPT_CHANNEL.exec(cookieHeader ?? '')?.[1];
  return value ? readLastChannelCookie(value, userId) : null;
}

/**
 * Which channel the page opens, as the app decides it (first-messages.tsx `openingChannel`): the address's channel
 * (an old sect link's new home), else the viewer's last channel, else the first public channel. `named` says whether
 * the address named it: on a phone, /chat is the channel list and the page must not show a channel (index.css).
 */
function openingChannel(
  path: RegExpExecArray,
  publicChannels: readonly ChannelRef[],
  kept: () => ChannelRef | null,
): { target: ChannelRef; named: boolean } | null {
  if (path[1] !== undefined && path[2] !== undefined) {
    const type = decoded(path[1]);
    const id = decoded(path[2]);
    if (!type || !id || type.length + id.length + 1 > MAX_CID_LENGTH) return null;
    return { target: movedSectChannel({ type, id }, publicChannels) ?? { type, id }, named: true };
  }
  const target = kept() ?? publicChannels[0];
  return target ? { target, named: false } : null;
}

interface MessageShape {
  id?: unknown;
  type?: unknown;
  text?: unknown;
  created_at?: unknown;
  user?: { id?: unknown; name?: unknown } | null;
}

interface ChannelShape {
  channel?: { cid?: unknown; id?: unknown; name?: unknown };
  messages?: MessageShape[];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function clipped(value: string): string {
  const characters = Array.from(value);
  return characters.length > MAX_TEXT_LENGTH
    ? `${characters.slice(0, MAX_TEXT_LENGTH).join('')}…`
    : value;
}

// Keep in sync with first-messages.tsx (ChannelPreview, PreviewMessage, ListPlaceholder) and user-avatar.tsx: the
// same classes, so the page looks the same before and after the app takes over. Every class here is used there, so
// the app's stylesheet has it.
const AVATAR =
  'flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-linear-to-br from-primary to-[oklch(0.38_0.07_172)] font-display text-sm font-semibold text-primary-foreground ring-1 ring-gold/60';

function avatar(name: string, size: string): string {
  return `<span aria-hidden="true" class="${AVATAR} ${size}">${escapeHtml(avatarInitials(name))}</span>`;
}

const LIST_PLACEHOLDER = `<div aria-hidden="true" class="hidden w-72 shrink-0 flex-col gap-3 border-e p-4 desktop:flex"><div class="h-8 w-32 rounded-md bg-muted"></div>${'<div class="flex items-center gap-3 py-2"><div class="size-12 rounded-full bg-muted"></div><div class="flex flex-1 flex-col gap-2"><div class="h-3 w-2/3 rounded bg-muted"></div><div class="h-3 w-full rounded bg-muted"></div></div></div>'.repeat(3)}</div>`;

function messageItem(message: MessageShape): string {
  const author = text(message.user?.name) || text(message.user?.id);
  const sent = new Date(text(message.created_at));
  // The time is written by the app in the viewer's time zone and language (early-messages.tsx): the server knows
  // neither.
  const time = Number.isNaN(sent.getTime())
    ? ''
    : `<time class="text-xs text-muted-foreground" datetime="${sent.toISOString()}"></time>`;
  return (
    `<li data-message-id="${escapeHtml(text(message.id))}" class="flex items-end gap-3 px-4 py-2">` +
    avatar(author, 'size-8') +
    '<div class="flex min-w-0 flex-col items-start gap-1">' +
    `<span class="text-xs font-semibold text-muted-foreground">${escapeHtml(author)}</span>` +
    `<p class="max-w-xl rounded-2xl bg-muted px-3 py-2 text-[0.95rem] break-words whitespace-pre-wrap">${escapeHtml(clipped(text(message.text)))}</p>` +
    time +
    '</div></li>'
  );
}

/** The page's drawing of a channel, or '' when it has nothing to show (as the app's stand-in, `previewMessages`). */
export function renderFirstMessages(state: ChannelShape, named: boolean): string {
  const cid = text(state.channel?.cid);
  const messages = (state.messages ?? [])
    .filter((message) => message.type === 'regular' || message.type === 'reply')
    // Attachment-only messages are left to the app, which labels them in the viewer's language.
    .filter((message) => text(message.text) !== '' && text(message.id) !== '')
    .slice(-SHOWN_MESSAGES);
  if (!cid || messages.length === 0) return '';
  const name = text(state.channel?.name) || text(state.channel?.id);
  return (
    `<div id="dh-early-messages"${named ? '' : ' data-default-channel=""'}>` +
    '<div class="mx-auto w-full max-w-6xl"><div class="dh-chat-frame flex min-w-0">' +
    `<section class="flex min-w-0 flex-1" data-first-messages="" data-early-messages="${escapeHtml(cid)}" aria-busy="true" aria-label="${escapeHtml(name)}">` +
    LIST_PLACEHOLDER +
    '<div class="flex min-w-0 flex-1 flex-col">' +
    `<header class="flex h-16 shrink-0 items-center gap-3 border-b px-4">${avatar(name, 'size-10')}<span class="font-display text-lg font-semibold">${escapeHtml(name)}</span></header>` +
    `<ol class="flex min-h-0 flex-1 flex-col justify-end overflow-hidden py-2">${messages.map(messageItem).join('')}</ol>` +
    '</div></section></div></div></div>'
  );
}

export function createFirstMessages({
  auth,
  api,
  publicChannels,
  log,
}: FirstMessagesOptions): FirstMessagesRenderer {
  const guestReads = new Map<string, { until: number; state: Promise<ChannelShape | null> }>();
  const userReads = new FixedWindowCounter({ windowMs: 60_000, maxKeys: MAX_COUNTED_VIEWERS });

  async function read(
    target: ChannelRef,
    userId: string | undefined,
  ): Promise<ChannelShape | null> {
    const baseURL = api.baseURL;
    if (baseURL === undefined) return null;
    const query = new URLSearchParams({ api_key: api.apiKey });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (userId === undefined) {
      headers['stream-auth-type'] = 'anonymous';
    } else {
      const now = Math.floor(Date.now() / 1000);
      query.set('user_id', userId);
      headers['stream-auth-type'] = 'jwt';
      headers.authorization = api.createToken(userId, now, READ_TOKEN_TTL_SECONDS);
    }
    const response = await fetch(`${baseURL}/channels?${query.toString()}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        filter_conditions: { cid: `${target.type}:${target.id}` },
        state: true,
        limit: 1,
        message_limit: SHOWN_MESSAGES,
      }),
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { channels?: ChannelShape[] };
    return body.channels?.[0] ?? null;
  }

  /** A guest reads only the public channels, and one read of each serves every guest for a moment. */
  function guestRead(target: ChannelRef): Promise<ChannelShape | null> {
    if (!isSectChannel(target, publicChannels)) return Promise.resolve(null);
    const cid = `${target.type}:${target.id}`;
    const now = Date.now();
    const cached = guestReads.get(cid);
    if (cached && cached.until > now) return cached.state;
    const state = read(target, undefined).catch(() => null);
    guestReads.set(cid, { until: now + GUEST_CACHE_MS, state });
    return state;
  }

  return async (request, reply) => {
    const path = CHAT_PAGE.exec(request.url.split('?', 1)[0] ?? '');
    if (!path) return '';
    try {
      const userId = await readSessionUserId(auth, request, reply);
      const opening = openingChannel(path, publicChannels, () =>
        userId === undefined ? null : keptChannel(request.headers.cookie, userId),
      );
      if (!opening) return '';
      let state: ChannelShape | null = null;
      if (userId === undefined) state = await guestRead(opening.target);
      else if (userReads.add(userId) <= USER_READS_PER_MINUTE)
        state = await read(opening.target, userId);
      return state ? renderFirstMessages(state, opening.named) : '';
    } catch (error) {
      // A slow or failing chat API costs the page its head start, nothing else.
      log.debug({ err: error }, 'the chat page was sent without its first messages');
      return '';
    }
  };
}
