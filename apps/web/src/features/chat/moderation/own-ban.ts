import type { Event, OwnUserResponse, UserResponse } from 'stream-chat';
import { formatMomentIn, shownLanguageNow, t } from '@/i18n';

/** A ban on the signed-in user, as the chat notice shows it. */
export interface OwnBan {
  /** ISO 8601, or null for a permanent ban. */
  expires: string | null;
  reason: string | null;
}

type Json = Record<string, unknown>;

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function hasLapsed(ban: OwnBan, now: number = Date.now()): boolean {
  if (!ban.expires) return false;
  const end = Date.parse(ban.expires);
  return Number.isFinite(end) && end <= now;
}

/**
 * The ban carried by `me` (health.check, notification events) or by a channel membership: `banned` with the optional
 * `ban_expires`, and the reason where the server adds one. `undefined` when the object says nothing about bans.
 */
export function banFromUser(
  user: OwnUserResponse | UserResponse | Json | null | undefined,
  now: number = Date.now(),
): OwnBan | null | undefined {
  if (!user || !('banned' in user)) return undefined;
  const raw = user as Json;
  if (raw.banned !== true) return null;
  const ban = { expires: text(raw.ban_expires), reason: text(raw.ban_reason) };
  return hasLapsed(ban, now) ? null : ban;
}

/**
 * What a `user.banned` / `user.unbanned` event means for the signed-in user `myId`: a ban (or its end) either for
 * the whole app (no cid) or for one channel; undefined when the event is about someone else. A shadow ban is never
 * shown to the one it hides.
 */
export function banChangeFromEvent(
  event: Event,
  myId: string | undefined,
): { cid: string | null; ban: OwnBan | null } | undefined {
  if (!myId || event.user?.id !== myId) return undefined;
  const cid = event.cid ?? null;
  if (event.type === 'user.unbanned') return { cid, ban: null };
  if (event.type !== 'user.banned' || event.shadow) return undefined;
  const raw = event as unknown as Json;
  return { cid, ban: { expires: text(raw.expiration), reason: text(raw.reason) } };
}

/** "Đạo hữu đã bị cấm chat đến 14:30 25/11/2026. Lý do: …" */
export function banNoticeText(ban: OwnBan): string {
  const until = ban.expires
    ? t('chat.ban.until', { until: formatMomentIn(ban.expires, shownLanguageNow()) })
    : t('chat.ban.forever');
  const notice = t('chat.ban.notice', { until });
  return ban.reason ? `${notice} ${t('chat.ban.reason', { reason: ban.reason })}` : notice;
}
