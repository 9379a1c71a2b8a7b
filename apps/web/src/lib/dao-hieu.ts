/** Đạo hiệu (display name) rules shared by sign-up and the profile form; the server enforces the same. */
export const DAO_HIEU_MIN = 2;
export const DAO_HIEU_MAX = 32;
export const DAO_HIEU_LENGTH_MESSAGE = 'Đạo hiệu phải có từ 2 đến 32 ký tự.';

export function validateDaoHieu(daoHieu: string): string | null {
  // Counted in characters as a reader sees them, not UTF-16 units.
  const length = Array.from(daoHieu.trim()).length;
  return length >= DAO_HIEU_MIN && length <= DAO_HIEU_MAX ? null : DAO_HIEU_LENGTH_MESSAGE;
}
