export const DAO_HIEU_MIN_LENGTH = 2;
export const DAO_HIEU_MAX_LENGTH = 32;

// Control characters (newlines, tabs, NUL…) have no place in a name shown in chat headers.
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * Validates a đạo hiệu (display name): trimmed, NFC-normalised so "ễ" typed as base + combining marks counts as
 * one character, 2–32 characters (code points), no control characters. Returns the name to store, or undefined.
 */
export function parseDaoHieu(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.normalize('NFC').trim();
  const length = [...name].length;
  if (length < DAO_HIEU_MIN_LENGTH || length > DAO_HIEU_MAX_LENGTH) return undefined;
  if (CONTROL_CHARACTER.test(name)) return undefined;
  return name;
}
