import type { ReminderResponse } from 'stream-chat';

export interface ReminderGroups {
  /** Due in the future, soonest first. */
  upcoming: ReminderResponse[];
  /** Due already, most recently due first. */
  overdue: ReminderResponse[];
  /** "Save for later": no time at all, newest first. */
  saved: ReminderResponse[];
}

/** Sorts the cultivator's reminders into the three lists of the /nhac-nho screen, as of `now`. */
export function groupReminders(
  reminders: readonly ReminderResponse[],
  now: number,
): ReminderGroups {
  const groups: ReminderGroups = { upcoming: [], overdue: [], saved: [] };
  for (const reminder of reminders) {
    if (!reminder.remind_at) groups.saved.push(reminder);
    else if (Date.parse(reminder.remind_at) > now) groups.upcoming.push(reminder);
    else groups.overdue.push(reminder);
  }
  const at = (reminder: ReminderResponse) => Date.parse(reminder.remind_at ?? reminder.created_at);
  groups.upcoming.sort((a, b) => at(a) - at(b));
  groups.overdue.sort((a, b) => at(b) - at(a));
  groups.saved.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  return groups;
}

/** The search parameter that asks the channel to scroll to one message (`/chat/:type/:id?tin-nhan=…`). */
export const MESSAGE_SEARCH_PARAM = 'tin-nhan';

/** The link to a reminder's message inside its channel. */
export function reminderMessageHref(channelCid: string, messageId: string): string {
  const separator = channelCid.indexOf(':');
  const type = channelCid.slice(0, separator);
  const id = channelCid.slice(separator + 1);
  const search = new URLSearchParams({ [MESSAGE_SEARCH_PARAM]: messageId });
  return `/chat/${encodeURIComponent(type)}/${encodeURIComponent(id)}?${search.toString()}`;
}
