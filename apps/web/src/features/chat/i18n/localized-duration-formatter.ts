import dayjs from 'dayjs';
import duration from 'dayjs/plugin/duration.js';
import type { FormatterFactory } from 'stream-chat-react';

dayjs.extend(duration);

// stream-chat-react's own durationFormatter builds the duration in dayjs's global locale, which
// stays English; the chat's language must not depend on (or change) that global.
export const localizedDurationFormatter: FormatterFactory<number> =
  (streamI18n) =>
  (value, _language, { format, withSuffix }) => {
    const localized = dayjs.duration(value).locale(streamI18n.currentLanguage);
    if (typeof format === 'string' && format.length > 0) return localized.format(format);
    return localized.humanize(withSuffix === true);
  };
