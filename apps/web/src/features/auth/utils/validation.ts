import {
  checkDaoHieu,
  DAO_HIEU_MAX_LENGTH,
  DAO_HIEU_MIN_LENGTH,
  MIN_PASSWORD_LENGTH,
  type DaoHieuProblem,
} from '@daohuu/domain';
import { t } from '@/i18n';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(email: string): string | null {
  if (!email.trim()) return t('auth.emailRequired');
  return EMAIL_PATTERN.test(email.trim()) ? null : t('auth.emailInvalid');
}

export function passwordTooShortMessage(): string {
  return t('auth.passwordTooShort', { min: MIN_PASSWORD_LENGTH });
}

export function validateNewPassword(password: string): string | null {
  return password.length >= MIN_PASSWORD_LENGTH ? null : passwordTooShortMessage();
}

export function validateSignInPassword(password: string): string | null {
  return password ? null : t('auth.passwordRequired');
}

export function daoHieuProblemMessage(problem: DaoHieuProblem): string {
  return problem === 'length'
    ? t('auth.daoHieuLength', { min: DAO_HIEU_MIN_LENGTH, max: DAO_HIEU_MAX_LENGTH })
    : t('auth.daoHieuCharacters');
}

/** The đạo hiệu rule of packages/domain, the very one the server applies, in the app's language (or null). */
export function validateDaoHieuField(daoHieu: string): string | null {
  const check = checkDaoHieu(daoHieu);
  return check.ok ? null : daoHieuProblemMessage(check.problem);
}
