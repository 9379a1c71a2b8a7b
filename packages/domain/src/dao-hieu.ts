export const DAO_HIEU_MIN_LENGTH = 2;
export const DAO_HIEU_MAX_LENGTH = 32;

export const DAO_HIEU_LENGTH_MESSAGE = 'Đạo hiệu phải có từ 2 đến 32 ký tự.';
export const DAO_HIEU_CHARACTERS_MESSAGE =
  'Đạo hiệu không được chứa ký tự điều khiển, ký tự ẩn hay ký tự đổi chiều chữ.';

export type DaoHieuProblem = 'length' | 'characters';

export type DaoHieuCheck =
  { ok: true; name: string } | { ok: false; problem: DaoHieuProblem; message: string };

/**
 * Characters a name shown to every reader must not carry: controls (NUL, newline, tab…), format characters (the
 * bidi overrides and isolates that flip the text around them, zero-width spaces, BOM…), line and paragraph
 * separators, lone surrogates and private-use characters. The zero-width joiner (U+200D) is the one format
 * character allowed: emoji sequences such as 👩‍💻 need it.
 */
const FORBIDDEN_CHARACTER = /[\p{Cc}\p{Cs}\p{Co}\p{Zl}\p{Zp}]|(?!\u200D)\p{Cf}/u;

/** Longer input is refused before normalising it: no valid name is anywhere near this many UTF-16 units. */
const MAX_INPUT_UNITS = DAO_HIEU_MAX_LENGTH * 8;

function refuse(problem: DaoHieuProblem): DaoHieuCheck {
  const message = problem === 'length' ? DAO_HIEU_LENGTH_MESSAGE : DAO_HIEU_CHARACTERS_MESSAGE;
  return { ok: false, problem, message };
}

/**
 * The đạo hiệu (display name) rule, the one every path that sets a name applies (sign-up, better-auth's
 * update-user, PATCH /api/me, the demo seed, the web forms): trimmed, NFC-normalised so "ễ" typed as base +
 * combining marks counts as one character, 2–32 characters (code points), none of FORBIDDEN_CHARACTER.
 */
export function checkDaoHieu(value: unknown): DaoHieuCheck {
  if (typeof value !== 'string' || value.length > MAX_INPUT_UNITS) return refuse('length');
  const name = value.normalize('NFC').trim();
  const length = [...name].length;
  if (length < DAO_HIEU_MIN_LENGTH || length > DAO_HIEU_MAX_LENGTH) return refuse('length');
  if (FORBIDDEN_CHARACTER.test(name)) return refuse('characters');
  return { ok: true, name };
}

/** The name to store, or undefined when `value` breaks the rule (checkDaoHieu says why). */
export function parseDaoHieu(value: unknown): string | undefined {
  const check = checkDaoHieu(value);
  return check.ok ? check.name : undefined;
}
