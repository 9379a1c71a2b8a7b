import type { ModerationAction } from '@daohuu/domain';

export { formatMoment } from '@/lib/format-moment';

/** The ban lengths a moderator picks from; `null` minutes is a permanent ban. */
export const BAN_DURATION_OPTIONS: ReadonlyArray<{
  value: string;
  minutes: number | null;
  label: string;
}> = [
  { value: '60', minutes: 60, label: '1 giờ' },
  { value: '1440', minutes: 1440, label: '1 ngày' },
  { value: '10080', minutes: 10_080, label: '7 ngày' },
  { value: 'forever', minutes: null, label: 'Vĩnh viễn' },
];

export const ACTION_LABELS: Record<ModerationAction, string> = {
  mark_reviewed: 'Đánh dấu đã xem xét',
  delete_message: 'Xóa tin nhắn',
  ban: 'Cấm',
  shadow_ban: 'Cấm ẩn',
  unban: 'Bỏ cấm',
  restore: 'Khôi phục',
};

/** Labels for action-log entries as the chat server names them (plus the screen's own names). */
const LOG_LABELS: Record<string, string> = {
  ...ACTION_LABELS,
  mark_as_reviewed: ACTION_LABELS.mark_reviewed,
  shadow_block: 'Chặn ẩn',
  block: 'Chặn',
  flag: 'Báo cáo',
};

export function actionLogLabel(type: string): string {
  return LOG_LABELS[type] ?? type;
}

/** Actions that need a length; the others act at once. */
export function takesDuration(action: ModerationAction): boolean {
  return action === 'ban' || action === 'shadow_ban';
}

/** One word per line; blank lines and repeats (ignoring case) dropped, order kept. */
export function parseBlocklistWords(text: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const word = line.trim();
    const key = word.toLocaleLowerCase('vi');
    if (!word || seen.has(key)) continue;
    seen.add(key);
    words.push(word);
  }
  return words;
}

/** A cid a moderator typed: "type:id" with the characters the chat server accepts. */
export function isValidCid(value: string): boolean {
  return /^[\w-]+:[\w@.-]+$/u.test(value);
}

/**
 * The items of several pages, each once: pages are offsets into lists that move while the moderator reads (new
 * reports, decided items, lifted bans), so an item can reach a later page again.
 */
export function distinctBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const id = key(item);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
