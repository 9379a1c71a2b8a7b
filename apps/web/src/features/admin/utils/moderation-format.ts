import { MODERATION_ACTIONS, type ModerationAction } from '@daohuu/domain';
import { t, type MessageKey } from '@/i18n';

/** The ban lengths a moderator picks from; `null` minutes is a permanent ban. */
export const BAN_DURATION_OPTIONS: ReadonlyArray<{
  value: string;
  minutes: number | null;
  label: MessageKey;
}> = [
  { value: '60', minutes: 60, label: 'admin.moderation.duration1h' },
  { value: '1440', minutes: 1440, label: 'admin.moderation.duration1d' },
  { value: '10080', minutes: 10_080, label: 'admin.moderation.duration7d' },
  { value: 'forever', minutes: null, label: 'admin.moderation.forever' },
];

/** The name of a moderation action in the app's language. */
export function actionLabel(action: ModerationAction): string {
  return t(`admin.moderation.action.${action}`);
}

/** Log entries the chat server names differently from the screen's actions. */
const LOG_KEYS: Record<string, MessageKey> = {
  mark_as_reviewed: 'admin.moderation.action.mark_reviewed',
  shadow_block: 'admin.moderation.action.shadow_block',
  block: 'admin.moderation.action.block',
  flag: 'admin.moderation.action.flag',
};

const ACTIONS = new Set<string>(MODERATION_ACTIONS);

/** Labels for action-log entries as the chat server names them (plus the screen's own names). */
export function actionLogLabel(type: string): string {
  if (ACTIONS.has(type)) return actionLabel(type as ModerationAction);
  const key = LOG_KEYS[type];
  return key ? t(key) : type;
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
