/** The reasons offered when reporting a message; "Khác" needs the reporter's own words. */
export const REPORT_REASONS = [
  'Spam hoặc quảng cáo',
  'Lời lẽ xúc phạm, quấy rối',
  'Nội dung không phù hợp',
  'Lừa đảo',
  'Khác',
] as const;

export type ReportReason = (typeof REPORT_REASONS)[number];

export const OTHER_REASON: ReportReason = 'Khác';
export const REPORT_DETAIL_MAX = 300;

/** The reason sent with the report, or an error message in Vietnamese. */
export function reportReasonText(
  reason: ReportReason | null,
  detail: string,
): { ok: true; text: string } | { ok: false; message: string } {
  const extra = detail.trim();
  if (!reason) return { ok: false, message: 'Hãy chọn lý do báo cáo.' };
  if (reason === OTHER_REASON && !extra) {
    return { ok: false, message: 'Hãy ghi rõ lý do báo cáo.' };
  }
  if (extra.length > REPORT_DETAIL_MAX) {
    return { ok: false, message: `Lý do dài tối đa ${REPORT_DETAIL_MAX} ký tự.` };
  }
  return { ok: true, text: extra ? `${reason}: ${extra}` : reason };
}
