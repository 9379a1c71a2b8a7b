/**
 * When the browser itself (the Notification API) tells the cultivator of something: only after they opted in
 * from the bell panel (the permission prompt comes from that click and never before), only for a mention of them
 * or a direct message to them, and only while the tab is hidden (visible, the chat and the bell show it).
 */

import { t } from '@/i18n';

export type BrowserNotificationReason = 'mention' | 'direct_message';

/** Where the opt-in is kept, per browser (it goes with the browser's own permission, not with the account). */
export const BROWSER_NOTIFICATIONS_KEY = 'daohuu:thong-bao-trinh-duyet';

export interface MessageFacts {
  ownUserId: string;
  authorId: string | undefined;
  messageType: string | undefined;
  /** Ids of the users the message mentions. */
  mentionedIds: readonly string[];
  channelType: string | undefined;
  /** How many members the channel has, when known. */
  memberCount: number | undefined;
}

/** Why a new message concerns the cultivator enough for the browser to tell them, or null. */
export function reasonToNotify(facts: MessageFacts): BrowserNotificationReason | null {
  if (!facts.authorId || facts.authorId === facts.ownUserId) return null;
  // System messages (joins, bans) and the client's own error messages are nobody's words to them.
  if (facts.messageType === 'system' || facts.messageType === 'error') return null;
  if (facts.mentionedIds.includes(facts.ownUserId)) return 'mention';
  if (facts.channelType === 'messaging' && facts.memberCount === 2) return 'direct_message';
  return null;
}

/**
 * How many members the channel of a message event has. The event says so itself (`channel_member_count` on every
 * channel event, `channel` on notification.message_new); what the client holds comes last, because a channel the
 * channel list has only just started watching (a new direct conversation) has no data yet when its first message.new
 * arrives.
 */
export function eventMemberCount(
  event: { channel_member_count?: number; channel?: { member_count?: number } },
  held: number | undefined,
): number | undefined {
  if (typeof event.channel_member_count === 'number') return event.channel_member_count;
  const fromChannel = event.channel?.member_count;
  return typeof fromChannel === 'number' ? fromChannel : held;
}

export interface NotifyConditions {
  optedIn: boolean;
  /** `Notification.permission`, or 'unsupported' where the API does not exist. */
  permission: NotificationPermission | 'unsupported';
  visibilityState: DocumentVisibilityState;
  reason: BrowserNotificationReason | null;
}

/** Whether to show a browser notification now. */
export function shouldNotify(conditions: NotifyConditions): boolean {
  return (
    conditions.optedIn &&
    conditions.permission === 'granted' &&
    conditions.visibilityState === 'hidden' &&
    conditions.reason !== null
  );
}

/** The notification's title: who, and why it is for them. */
export function browserNotificationTitle(
  reason: BrowserNotificationReason,
  authorName: string,
): string {
  return t(
    reason === 'mention'
      ? 'chat.notifications.browserMention'
      : 'chat.notifications.browserMessage',
    { name: authorName },
  );
}

/** The message's first words: a notification is a glance, not the message. */
export function browserNotificationBody(text: string | undefined): string {
  const trimmed = (text ?? '').replace(/\s+/g, ' ').trim();
  if (!trimmed) return t('chat.notifications.browserNewMessage');
  return trimmed.length > 120 ? `${trimmed.slice(0, 119)}…` : trimmed;
}
