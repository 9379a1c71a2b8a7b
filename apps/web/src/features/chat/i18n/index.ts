import { Streami18n, enTranslations } from 'stream-chat-react';

import { localizedDurationFormatter } from './localized-duration-formatter';
import viClientMessagesJson from './vi-client-messages.json';
import viComposerJson from './vi-composer.json';
import viPeopleJson from './vi-people.json';
import viSearchJson from './vi-search.json';
import { viDayjsLocale } from './vi-dayjs-locale';
import { withViRelativeTime } from './vi-relative-time-formatter';
import viJson from './vi.json';

/**
 * The shape of stream-chat-react's English file (`enTranslations`). The package's typings import
 * an en.json they do not ship, so `typeof enTranslations` is `any`; `getTranslations()` still
 * spells out every English key (in a union with a loose record, hence `keyof`), which makes a
 * missing Vietnamese key a type error.
 */
export type ChatTranslations = Record<
  keyof ReturnType<Streami18n['getTranslations']>[string][string],
  string
>;

export type ChatLanguage = 'vi' | 'en';

export const viTranslations: ChatTranslations = viJson;

/**
 * Texts the chat client raises (docs/product-rules.md §7) that are not keys of the English file. The
 * notification UI falls back to translating a notification's raw message, so these are
 * registered as extra Vietnamese keys; in English the raw message already is the text.
 */
export const viClientMessages: Readonly<Record<string, string>> = viClientMessagesJson;

/**
 * The search screen's own texts (features/chat/search), keyed by their English wording, which English shows as is.
 */
export const viSearchTexts: Readonly<Record<string, string>> = viSearchJson;

/** The mention, members-panel and profile-card texts (features/chat/people), keyed by their English wording. */
export const viPeopleTexts: Readonly<Record<string, string>> = viPeopleJson;

/** The composer's own texts (emoji, link previews, poll options), keyed by their English wording. */
export const viComposerTexts: Readonly<Record<string, string>> = viComposerJson;

/**
 * dayjs's own calendar, as the SDK's English uses it for live-location ends and poll vote tooltips, on the 24-hour
 * clock: the same words as the SDK's reminder times ("Today at 14:08").
 */
const ONE_CLOCK_CALENDAR = JSON.stringify({
  sameDay: '[Today] [at] HH:mm',
  nextDay: '[Tomorrow] [at] HH:mm',
  lastDay: '[Yesterday] [at] HH:mm',
  nextWeek: 'dddd [at] HH:mm',
  lastWeek: '[Last] dddd [at] HH:mm',
  sameElse: 'L',
}).replace(/,/g, ', ');

/** `calendar: true` with no formats of its own: dayjs's default calendar, "Today at 2:08 PM" in English. */
function usesDefaultCalendar(format: string): boolean {
  return /calendar: true\s*\)/.test(format);
}

/**
 * One clock in English as in Vietnamese: stream-chat-react's English times of messages are 24-hour (`HH:mm`), but
 * its channel list, pinned and live-location times use the locale's `LT`, which is 12-hour in English ("2:08 PM"
 * beside "14:08"), and two (live location "until", the poll vote tooltip) dayjs's default calendar, which is too.
 * Those formats get `HH:mm` instead; everything else stays the SDK's English.
 */
export function enOneClockTimestamps(
  english: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(english)
      .filter(
        ([key, format]) =>
          key.startsWith('timestamp/') && (/\bLT\b/.test(format) || usesDefaultCalendar(format)),
      )
      .map(([key, format]) => [
        key,
        format
          .replace(/\bLT\b/g, 'HH:mm')
          .replace(
            /calendar: true(?=\s*\))/,
            `calendar: true; calendarFormats: ${ONE_CLOCK_CALENDAR}`,
          ),
      ]),
  );
}

export function createStreami18n(language: ChatLanguage): Streami18n {
  if (language === 'en')
    return new Streami18n({
      language: 'en',
      translationsForLanguage: enOneClockTimestamps(enTranslations as Record<string, string>),
    });
  return new Streami18n({
    language: 'vi',
    translationsForLanguage: {
      ...viClientMessages,
      ...viSearchTexts,
      ...viPeopleTexts,
      ...viComposerTexts,
      ...viTranslations,
    },
    dayjsLocaleConfigForLanguage: viDayjsLocale,
    formatters: { durationFormatter: withViRelativeTime(localizedDurationFormatter) },
  });
}
