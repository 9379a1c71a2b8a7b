import { chatChannelHref } from '../utils/chat-paths';
import { RESULT_SEARCH_PARAM, THREAD_SEARCH_PARAM, splitCid } from '../search/result-links';

/** One in-app notification as the chat server's `GET /daohuu/notifications` returns it. */
export interface AppNotification {
  id: string;
  kind: string;
  cid: string | null;
  message_id: string | null;
  parent_id: string | null;
  actor_id: string | null;
  actor: { id: string; name?: string | null } | null;
  channel_name: string | null;
  created_at: string;
  read_at: string | null;
  /** What a notification the product created says of itself (`{realm}` for a breakthrough). */
  data?: Record<string, string>;
}

function who(notification: AppNotification): string {
  const actor = notification.actor;
  return actor?.name?.trim() || actor?.id || notification.actor_id || 'Một đạo hữu';
}

function where(notification: AppNotification): string {
  return notification.channel_name?.trim() || 'một cuộc trò chuyện';
}

/** What the notification says, in one sentence: who did what, where. */
export function notificationText(notification: AppNotification): string {
  switch (notification.kind) {
    case 'mention':
      return `${who(notification)} nhắc đến đạo hữu trong ${where(notification)}`;
    case 'reply':
      return `${who(notification)} trả lời chuỗi trả lời của đạo hữu trong ${where(notification)}`;
    case 'reaction':
      return `${who(notification)} bày tỏ biểu cảm với tin nhắn của đạo hữu trong ${where(notification)}`;
    case 'added_to_channel':
      return `Đạo hữu được thêm vào ${where(notification)}`;
    case 'reminder_due':
      return `Đến hạn lời nhắc trong ${where(notification)}`;
    case 'campaign':
      return `Thông báo từ tông môn trong ${where(notification)}`;
    case 'breakthrough':
      return notification.data?.realm
        ? `Đột phá! Đạo hữu đã đạt cảnh giới ${notification.data.realm}`
        : 'Đột phá! Đạo hữu đã đạt cảnh giới mới';
    default:
      return `Thông báo mới trong ${where(notification)}`;
  }
}

const relative = new Intl.RelativeTimeFormat('vi', { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['minute', 60],
  ['hour', 60],
  ['day', 24],
  ['week', 7],
];

/** When, relative to `now`: "vừa xong", "5 phút trước", "hôm qua", … then the date. */
export function notificationWhen(createdAt: string, now: number = Date.now()): string {
  const seconds = Math.round((Date.parse(createdAt) - now) / 1000);
  if (Number.isNaN(seconds)) return '';
  if (Math.abs(seconds) < 60) return 'vừa xong';
  let value = seconds / 60;
  for (let i = 0; i < STEPS.length; i++) {
    const [unit] = STEPS[i]!;
    const next = STEPS[i + 1];
    if (!next || Math.abs(value) < next[1]) return relative.format(Math.round(value), unit);
    value /= next[1];
  }
  return new Date(createdAt).toLocaleDateString('vi-VN');
}

/**
 * Where the notification leads: its message in its channel, highlighted (a reply opens its thread at the
 * parent), or the channel itself when there is no message. Reuses the search screen's jump (`?ket-qua=`).
 */
export function notificationHref(notification: AppNotification): string | null {
  const channel = notification.cid ? splitCid(notification.cid) : null;
  if (!channel) return null;
  const base = chatChannelHref(channel.type, channel.id);
  if (!notification.message_id) return base;
  const params = new URLSearchParams({ [RESULT_SEARCH_PARAM]: notification.message_id });
  if (notification.parent_id) params.set(THREAD_SEARCH_PARAM, notification.parent_id);
  return `${base}?${params.toString()}`;
}
