/** What the chat knows about someone's presence (a stream-chat user or member's user). */
export interface PresenceSource {
  online?: boolean;
  last_active?: string;
}

/** A status line as a translation key (English wording, see i18n/vi-people.json) and its values. */
export interface PresenceText {
  key: string;
  values?: Record<string, string | number>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * "Đang trực tuyến" while connected, else how long ago they were last active, rounded down to the largest unit
 * that fits; "Ngoại tuyến" when the server never saw them (or hides it: invisible users carry no `last_active`).
 */
export function presenceText(user: PresenceSource | undefined, now: number): PresenceText {
  if (user?.online) return { key: 'Online now' };
  const lastActive = user?.last_active ? Date.parse(user.last_active) : Number.NaN;
  if (!Number.isFinite(lastActive)) return { key: 'Offline' };
  const ago = Math.max(0, now - lastActive);
  if (ago < MINUTE) return { key: 'Active just now' };
  if (ago < HOUR) {
    return { key: 'Active {{ minutes }} min ago', values: { minutes: Math.floor(ago / MINUTE) } };
  }
  if (ago < DAY)
    return { key: 'Active {{ hours }} h ago', values: { hours: Math.floor(ago / HOUR) } };
  return { key: 'Active {{ days }} d ago', values: { days: Math.floor(ago / DAY) } };
}
