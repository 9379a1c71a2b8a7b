import { formatRelativeVi } from '@daohuu/domain';
import type { FormatterFactory } from 'stream-chat-react';

/**
 * The Vietnamese `durationFormatter`: `durationFormatter(relative: true)` words a time from now the app's one way,
 * "sau 2 phút" / "7 phút trước" (formatRelativeVi), and `capitalize: true` starts it with a capital for a menu item
 * ("Sau 1 giờ"). dayjs's humanize said "một giờ tới" beside "2 giờ tới", and "Đến hạn trong 7 phút tới" once the SDK
 * put "Due" in front of it. Anything else goes to `base`.
 */
export function withViRelativeTime(base: FormatterFactory<number>): FormatterFactory<number> {
  return (streamI18n) => {
    const formatDuration = base(streamI18n);
    return (value, language, options) => {
      if (options.relative !== true) return formatDuration(value, language, options);
      const text = formatRelativeVi(value);
      return options.capitalize === true ? text.charAt(0).toUpperCase() + text.slice(1) : text;
    };
  };
}
