/** What a moderator may do with one review-queue item (`POST /api/admin/moderation/actions`). */
export const MODERATION_ACTIONS = [
  'mark_reviewed',
  'delete_message',
  'ban',
  'shadow_ban',
  'unban',
  'restore',
] as const;

export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** Ban lengths offered to moderators, in minutes (the unit of the chat API's `timeout`); null is permanent. */
export const BAN_DURATIONS_MINUTES = [60, 1440, 10080, null] as const;

/** The longest ban with an end, one year: longer ones are permanent bans. */
export const MAX_BAN_MINUTES = 525_600;

/** Slow mode: seconds between two messages of one member; Stream accepts 1–120, 0 turns it off. */
export const MAX_SLOW_MODE_SECONDS = 120;

/** Words of one blocklist, and the length of one word. */
export const MAX_BLOCKLIST_WORDS = 1000;
export const MAX_BLOCKLIST_WORD_LENGTH = 100;
