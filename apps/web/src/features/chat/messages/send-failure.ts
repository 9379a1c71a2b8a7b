import { formatMomentIn, shownLanguageNow, t, type MessageKey, type MessageValues } from '@/i18n';
import type { OwnBan } from '../moderation/own-ban';

/** Why the chat server refused a message, as far as the app tells the cases apart. */
export type SendFailureKind =
  | 'banned'
  | 'blocked-by-user'
  | 'blocklist'
  | 'slow-mode'
  | 'frozen'
  | 'too-long'
  | 'too-big'
  | 'not-allowed'
  | 'rate-limited'
  | 'network'
  | 'unknown';

export interface SendFailure {
  kind: SendFailureKind;
  /** The sentence shown on the failed bubble, in the language on screen. */
  text: string;
  /** Whether sending the same message again may succeed later (the bubble then offers "Gửi lại"). */
  retryable: boolean;
}

/**
 * What stream-chat-react keeps on a failed message (`message.error`): stream-chat's ErrorFromResponse, whose
 * `response.data` is the server's error JSON, or a bare network error with status 0.
 */
export interface SendErrorLike {
  code?: number | null;
  status?: number;
  message?: string;
  response?: { data?: unknown; status?: number };
}

export interface SendFailureContext {
  /** The signed-in user's ban, when the app knows it (from `me`, ban events or a look-up after the refusal). */
  ban?: OwnBan | null;
  /** Seconds left before slow mode lets the user write again, when the composer knows it. */
  cooldownRemaining?: number;
}

/** "Chưa gửi được: <why>", the reason from the catalogue's `chat.send` section. */
function because(reason: MessageKey, values?: MessageValues): string {
  return `${t('chat.send.failed')}: ${t(reason, values)}`;
}

/** The text Stream puts in the `type: 'error'` message it answers a send to a frozen channel with. */
const FROZEN_TEXT = /channel has been frozen/i;

interface ServerError {
  code: number | null;
  status: number;
  message: string;
}

function serverError(error: SendErrorLike): ServerError {
  const data = (error.response?.data ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof data.code === 'number' ? data.code : (error.code ?? null);
  // stream-chat prefixes the server's message ("StreamChat error code 4: …"); the body holds it bare.
  const message =
    typeof data.message === 'string'
      ? data.message
      : (error.message ?? '').replace(/^StreamChat error code \d+: /, '');
  return { code, status: error.status ?? error.response?.status ?? 0, message };
}

function banText(ban: OwnBan | null | undefined): string {
  if (!ban) return because('chat.send.banned');
  if (!ban.expires) return because('chat.send.bannedForever');
  return because('chat.send.bannedUntil', {
    until: formatMomentIn(ban.expires, shownLanguageNow()),
  });
}

function slowModeText(message: string, remaining: number | undefined): string {
  const stated = /wait (\d+) seconds/.exec(message)?.[1];
  const seconds = remaining && remaining > 0 ? remaining : stated ? Number(stated) : undefined;
  return seconds
    ? because('chat.send.slowModeWait', { count: seconds })
    : because('chat.send.slowMode');
}

function tooLongText(message: string): string {
  const limit = /limit is (\d+)/.exec(message)?.[1];
  return limit ? because('chat.send.tooLongLimit', { limit }) : because('chat.send.tooLong');
}

function failure(kind: SendFailureKind, text: string, retryable = false): SendFailure {
  return { kind, text, retryable };
}

/** Refusals with code 17 (not allowed): the message says which rule refused. */
function notAllowed(message: string, context: SendFailureContext): SendFailure {
  if (/ is banned$/.test(message)) return failure('banned', banText(context.ban));
  if (/blocked you/.test(message))
    return failure('blocked-by-user', because('chat.send.blockedByUser'));
  if (/ is frozen$/.test(message) || FROZEN_TEXT.test(message))
    return failure('frozen', because('chat.send.frozen'));
  return failure('not-allowed', because('chat.send.notAllowed'));
}

/** Refusals with code 4 (input): the block-list word and the length limit are the ones a user can meet. */
function inputRefused(message: string): SendFailure {
  if (/blocked by moderation/i.test(message))
    return failure('blocklist', because('chat.send.blocklist'));
  if (/too long/i.test(message)) return failure('too-long', tooLongText(message));
  return failure('unknown', because('chat.send.invalid'));
}

/** The reason for a refused send, in the language on screen, from the error stream-chat-react keeps on the failed message. */
export function describeSendFailure(
  error: SendErrorLike | null | undefined,
  context: SendFailureContext = {},
): SendFailure {
  const { code, status, message } = serverError(error ?? {});
  if (code === 17) return notAllowed(message, context);
  if (code === 4) return inputRefused(message);
  if (code === 60)
    return failure('slow-mode', slowModeText(message, context.cooldownRemaining), true);
  if (code === 20) return failure('too-long', tooLongText(message));
  if (code === 22) return failure('too-big', because('chat.send.tooBig'));
  if (code === 9) return failure('rate-limited', because('chat.send.rateLimited'), true);
  // No reason to give: the bubble says "Chưa gửi được · Thử lại" and the outbox sends it when the connection returns.
  if (status === 0) return failure('network', t('chat.send.failed'), true);
  return failure('unknown', because('chat.send.serverError'), status !== 403);
}

/** The reason for Stream's `type: 'error'` answer to a send (a frozen channel); undefined for other texts. */
export function describeErrorMessage(text: string | undefined): SendFailure | undefined {
  if (text && FROZEN_TEXT.test(text)) return failure('frozen', because('chat.send.frozen'));
  return undefined;
}
