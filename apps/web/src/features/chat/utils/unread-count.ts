import { t } from '@/i18n';

/** Above this, badges print "99+" so they keep their size. */
export const UNREAD_BADGE_MAX = 99;

/** The text of an unread badge, or null when there is nothing unread (no badge at all). */
export function formatUnreadCount(count: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  const whole = Math.floor(count);
  return whole > UNREAD_BADGE_MAX ? `${UNREAD_BADGE_MAX}+` : String(whole);
}

/** The accessible wording of an unread badge ("3 tin nhắn chưa đọc"). */
export function describeUnreadCount(count: number): string {
  const whole = Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
  return t('chat.message.unreadCount', { count: whole });
}
