import { t, type Translate } from '@/i18n';

/** The reasons offered when reporting a message; "other" needs the reporter's own words. */
export const REPORT_REASONS = ['spam', 'abuse', 'inappropriate', 'scam', 'other'] as const;

export type ReportReason = (typeof REPORT_REASONS)[number];

export const OTHER_REASON: ReportReason = 'other';
export const REPORT_DETAIL_MAX = 300;

/** A reason as the reporter reads it (and as the moderator then reads it in the report). */
export function reportReasonLabel(reason: ReportReason, translate: Translate = t): string {
  return translate(`chat.report.reasons.${reason}`);
}

/** The reason sent with the report, or an error message, in the language on screen. */
export function reportReasonText(
  reason: ReportReason | null,
  detail: string,
  translate: Translate = t,
): { ok: true; text: string } | { ok: false; message: string } {
  const extra = detail.trim();
  if (!reason) return { ok: false, message: translate('chat.report.chooseReason') };
  if (reason === OTHER_REASON && !extra) {
    return { ok: false, message: translate('chat.report.explainReason') };
  }
  if (extra.length > REPORT_DETAIL_MAX) {
    return { ok: false, message: translate('chat.report.tooLong', { max: REPORT_DETAIL_MAX }) };
  }
  const label = reportReasonLabel(reason, translate);
  return { ok: true, text: extra ? `${label}: ${extra}` : label };
}
