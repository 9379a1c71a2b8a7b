import {
  AVATAR_MESSAGE,
  DAO_HIEU_CHARACTERS_MESSAGE,
  DAO_HIEU_LENGTH_MESSAGE,
  PASSWORD_TOO_SHORT_MESSAGE,
} from '@daohuu/domain';
import type { ApiErrorBody } from '@daohuu/domain';
import { INTERNAL_MESSAGE, TOO_MANY_ATTEMPTS_MESSAGE } from '../errors.ts';
import { USER_RULE_CODES } from './user-rules.ts';

export interface AuthErrorBody extends ApiErrorBody {
  /**
   * Mirrors `error.code` and `error.message` at the top level, where better-auth's own client reads them
   * (`const { error } = await authClient.signIn.email(…)` gives `error.code`, `error.message`, `error.status`).
   */
  code: string;
  message: string;
}

interface Translation {
  code: string;
  message: string;
}

const ORIGIN_MESSAGE = 'Yêu cầu bị từ chối vì không xuất phát từ trang Đạo Hữu.';
const INVALID_INPUT_MESSAGE = 'Dữ liệu gửi lên không hợp lệ.';

/** better-auth's codes as the web app sees them. Several of its codes collapse into one of ours. */
const TRANSLATIONS: Record<string, Translation> = {
  INVALID_EMAIL_OR_PASSWORD: {
    code: 'INVALID_EMAIL_OR_PASSWORD',
    message: 'Email hoặc mật khẩu không đúng.',
  },
  USER_ALREADY_EXISTS: { code: 'USER_ALREADY_EXISTS', message: 'Email này đã được sử dụng.' },
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: {
    code: 'USER_ALREADY_EXISTS',
    message: 'Email này đã được sử dụng.',
  },
  PASSWORD_TOO_SHORT: { code: 'PASSWORD_TOO_SHORT', message: PASSWORD_TOO_SHORT_MESSAGE },
  PASSWORD_TOO_LONG: { code: 'PASSWORD_TOO_LONG', message: 'Mật khẩu quá dài (tối đa 128 ký tự).' },
  INVALID_PASSWORD: { code: 'INVALID_PASSWORD', message: 'Mật khẩu không hợp lệ.' },
  INVALID_EMAIL: { code: 'INVALID_EMAIL', message: 'Email không hợp lệ.' },
  INVALID_ORIGIN: { code: 'INVALID_ORIGIN', message: ORIGIN_MESSAGE },
  MISSING_OR_NULL_ORIGIN: { code: 'MISSING_OR_NULL_ORIGIN', message: ORIGIN_MESSAGE },
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: { code: 'INVALID_ORIGIN', message: ORIGIN_MESSAGE },
  FIELD_NOT_ALLOWED: {
    code: 'FIELD_NOT_ALLOWED',
    message: 'Yêu cầu chứa trường không được phép gửi lên.',
  },
  VALIDATION_ERROR: { code: 'INVALID_BODY', message: INVALID_INPUT_MESSAGE },
  BODY_MUST_BE_AN_OBJECT: { code: 'INVALID_BODY', message: INVALID_INPUT_MESSAGE },
  MISSING_FIELD: { code: 'INVALID_BODY', message: INVALID_INPUT_MESSAGE },
  FAILED_TO_CREATE_USER: {
    code: 'FAILED_TO_CREATE_USER',
    message: 'Không tạo được tài khoản, vui lòng thử lại.',
  },
  TOO_MANY_REQUESTS: { code: 'TOO_MANY_ATTEMPTS', message: TOO_MANY_ATTEMPTS_MESSAGE },
  [USER_RULE_CODES.nameLength]: { code: 'INVALID_NAME', message: DAO_HIEU_LENGTH_MESSAGE },
  [USER_RULE_CODES.nameCharacters]: { code: 'INVALID_NAME', message: DAO_HIEU_CHARACTERS_MESSAGE },
  [USER_RULE_CODES.image]: { code: 'INVALID_IMAGE', message: AVATAR_MESSAGE },
};

/** Codes that count as a failed attempt against the email they named (auth/auth-attempt-limiter.ts). */
export const FAILURE_CODES_PER_EMAIL = new Set([
  'INVALID_EMAIL_OR_PASSWORD',
  'USER_ALREADY_EXISTS',
]);

function fallback(status: number): Translation {
  if (status >= 500) return { code: 'INTERNAL', message: INTERNAL_MESSAGE };
  if (status === 404) return { code: 'NOT_FOUND', message: 'Không tìm thấy địa chỉ này.' };
  if (status === 401) return { code: 'UNAUTHENTICATED', message: 'Đạo hữu cần đăng nhập.' };
  if (status === 403)
    return { code: 'FORBIDDEN', message: 'Đạo hữu không có quyền thực hiện thao tác này.' };
  if (status === 429) return { code: 'TOO_MANY_ATTEMPTS', message: TOO_MANY_ATTEMPTS_MESSAGE };
  return { code: 'BAD_REQUEST', message: 'Yêu cầu không hợp lệ.' };
}

/**
 * Turns a better-auth error response body into our error shape with a Vietnamese message. Unknown codes keep
 * better-auth's code (they are stable identifiers) but never its English message.
 */
export function translateAuthError(status: number, bodyText: string): AuthErrorBody {
  let upstreamCode: string | undefined;
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (
      parsed &&
      typeof parsed === 'object' &&
      'code' in parsed &&
      typeof parsed.code === 'string'
    ) {
      upstreamCode = parsed.code;
    }
  } catch {
    // Empty or non-JSON body (e.g. 404 for an unknown auth path): fall back on the status.
  }
  const known = upstreamCode === undefined ? undefined : TRANSLATIONS[upstreamCode];
  const base = fallback(status);
  const translation =
    known ?? (upstreamCode !== undefined && status < 500 ? { ...base, code: upstreamCode } : base);
  return { error: translation, code: translation.code, message: translation.message };
}
