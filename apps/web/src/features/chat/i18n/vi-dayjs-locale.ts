import viLocale from 'dayjs/locale/vi.js';

// dayjs's `vi` locale has no calendar block, so calendar timestamps ("Today at 14:05") would fall
// back to English wording; these follow moment's Vietnamese calendar strings.
const viCalendar = {
  sameDay: '[Hôm nay lúc] LT',
  nextDay: '[Ngày mai lúc] LT',
  nextWeek: 'dddd [tuần tới lúc] LT',
  lastDay: '[Hôm qua lúc] LT',
  lastWeek: 'dddd [tuần trước lúc] LT',
  sameElse: 'L',
};

export const viDayjsLocale = { ...viLocale, calendar: viCalendar };
