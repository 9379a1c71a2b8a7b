import { parseCid } from '@daohuu/domain';
import {
  DATE_LOCALES,
  shownLanguageNow,
  t,
  translatorIn,
  type Language,
  type Translate,
} from '@/i18n';
import { chatChannelHref } from '../utils/chat-paths';
import { RESULT_SEARCH_PARAM, THREAD_SEARCH_PARAM } from '../search/result-links';

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

/** The kinds whose sentence names who did what where, by their catalogue key. */
const ACTOR_KINDS: Record<string, 'mention' | 'reply' | 'reaction'> = {
  mention: 'mention',
  reply: 'reply',
  reaction: 'reaction',
};

/** The kinds whose sentence names only where, by their catalogue key. */
const PLACE_KINDS: Record<string, 'addedToChannel' | 'reminderDue' | 'campaign'> = {
  added_to_channel: 'addedToChannel',
  reminder_due: 'reminderDue',
  campaign: 'campaign',
};

/** What the notification says, in one sentence: who did what, where (in the language on screen by default). */
export function notificationText(notification: AppNotification, translate: Translate = t): string {
  const actor = notification.actor;
  const who =
    actor?.name?.trim() ||
    actor?.id ||
    notification.actor_id ||
    translate('chat.notifications.someone');
  const where = notification.channel_name?.trim() || translate('chat.notifications.somewhere');
  const actorKind = ACTOR_KINDS[notification.kind];
  if (actorKind) return translate(`chat.notifications.${actorKind}`, { who, where });
  const placeKind = PLACE_KINDS[notification.kind];
  if (placeKind) return translate(`chat.notifications.${placeKind}`, { where });
  if (notification.kind === 'breakthrough') {
    const realm = notification.data?.realm;
    return realm
      ? translate('chat.notifications.breakthrough', { realm })
      : translate('chat.notifications.breakthroughNew');
  }
  return translate('chat.notifications.other', { where });
}

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['minute', 60],
  ['hour', 60],
  ['day', 24],
  ['week', 7],
];

/** When, relative to `now`: "vừa xong", "5 phút trước", "hôm qua", … then the date, in the language on screen. */
export function notificationWhen(
  createdAt: string,
  now: number = Date.now(),
  language: Language = shownLanguageNow(),
): string {
  const seconds = Math.round((Date.parse(createdAt) - now) / 1000);
  if (Number.isNaN(seconds)) return '';
  if (Math.abs(seconds) < 60) return translatorIn(language)('chat.notifications.justNow');
  const relative = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  let value = seconds / 60;
  for (let i = 0; i < STEPS.length; i++) {
    const [unit] = STEPS[i]!;
    const next = STEPS[i + 1];
    if (!next || Math.abs(value) < next[1]) return relative.format(Math.round(value), unit);
    value /= next[1];
  }
  return new Date(createdAt).toLocaleDateString(DATE_LOCALES[language]);
}

/**
 * Where the notification leads: its message in its channel, highlighted (a reply opens its thread at the
 * parent), or the channel itself when there is no message. Reuses the search screen's jump (`?ket-qua=`).
 */
export function notificationHref(notification: AppNotification): string | null {
  const channel = notification.cid ? parseCid(notification.cid) : null;
  if (!channel) return null;
  const base = chatChannelHref(channel.type, channel.id);
  if (!notification.message_id) return base;
  const params = new URLSearchParams({ [RESULT_SEARCH_PARAM]: notification.message_id });
  if (notification.parent_id) params.set(THREAD_SEARCH_PARAM, notification.parent_id);
  return `${base}?${params.toString()}`;
}
