import { formatReminderDue } from '@daohuu/domain';
import { t, type Language } from '@/i18n';

const SECOND = 1_000;

/** Each unit, smallest first, with how many of it make the next one (as the domain's Vietnamese wording rounds). */
const UNITS: readonly (readonly [number, Intl.NumberFormatOptions['unit'], number])[] = [
  [SECOND, 'second', 60],
  [60 * SECOND, 'minute', 60],
  [3_600 * SECOND, 'hour', 24],
  [86_400 * SECOND, 'day', Infinity],
];

/** "45 seconds", "2 minutes", "1 hour": the one unit that fits, rounded, sign ignored. */
function englishDuration(milliseconds: number): string {
  const size = Math.abs(milliseconds);
  for (const [length, unit, perNext] of UNITS) {
    const count = Math.round(size / length);
    if (count < perNext) {
      return new Intl.NumberFormat('en-US', { style: 'unit', unit, unitDisplay: 'long' }).format(
        count,
      );
    }
  }
  return '—';
}

/**
 * When a reminder is due, `milliseconds` from now, in the language on screen. Vietnamese keeps the domain's one
 * wording (formatReminderDue: "Đến hạn sau 2 phút"); English says "Due in 2 minutes", "Overdue by 7 minutes".
 */
export function formatReminderDueIn(milliseconds: number, language: Language): string {
  if (language === 'vi' || !Number.isFinite(milliseconds)) return formatReminderDue(milliseconds);
  const translate = (key: 'dueIn' | 'overdueBy', duration: string) =>
    t(`chat.reminders.${key}`, { duration });
  if (Math.abs(milliseconds) < SECOND) return t('chat.reminders.dueNow');
  return milliseconds > 0
    ? translate('dueIn', englishDuration(milliseconds))
    : translate('overdueBy', englishDuration(milliseconds));
}
