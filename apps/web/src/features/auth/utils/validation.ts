import { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT_MESSAGE } from '@daohuu/domain';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(email: string): string | null {
  if (!email.trim()) return 'Vui lòng nhập email.';
  return EMAIL_PATTERN.test(email.trim()) ? null : 'Email không hợp lệ.';
}

export function validateNewPassword(password: string): string | null {
  return password.length >= MIN_PASSWORD_LENGTH ? null : PASSWORD_TOO_SHORT_MESSAGE;
}

export function validateSignInPassword(password: string): string | null {
  return password ? null : 'Vui lòng nhập mật khẩu.';
}
