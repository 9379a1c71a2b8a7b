import { PASSWORD_TOO_SHORT_MESSAGE } from '@daohuu/domain';
import { DAO_HIEU_LENGTH_MESSAGE } from '@/lib/dao-hieu';

/**
 * The shape better-auth's client returns on failure: the response body spread with `status`. Our product server
 * also nests its own `{ error: { code, message } }` (message in Vietnamese) in that body.
 */
export interface AuthClientError {
  code?: string | undefined;
  message?: string | undefined;
  status?: number | undefined;
  error?: { code?: string | undefined; message?: string | undefined } | undefined;
}

const MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: 'Email hoặc mật khẩu không đúng.',
  USER_ALREADY_EXISTS: 'Email này đã được sử dụng.',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'Email này đã được sử dụng.',
  PASSWORD_TOO_SHORT: PASSWORD_TOO_SHORT_MESSAGE,
  PASSWORD_TOO_LONG: 'Mật khẩu quá dài.',
  INVALID_EMAIL: 'Email không hợp lệ.',
  TOO_MANY_ATTEMPTS: 'Đạo hữu đã thử quá nhiều lần. Vui lòng thử lại sau ít phút.',
  INVALID_NAME: DAO_HIEU_LENGTH_MESSAGE,
  NETWORK_ERROR: 'Không thể kết nối đến máy chủ. Vui lòng thử lại.',
};

const FALLBACK_MESSAGE = 'Đã có lỗi xảy ra. Vui lòng thử lại.';

/** Every auth failure is shown in Vietnamese; unknown codes get a generic sentence, never English. */
export function authErrorMessage(error: AuthClientError): string {
  const code = error.code ?? error.error?.code;
  // The server says which part of the đạo hiệu rule was broken (length, or a forbidden character).
  if (code === 'INVALID_NAME' && error.error?.message) return error.error.message;
  const known = code ? MESSAGES[code] : undefined;
  if (known) return known;
  // better-auth's own rate limiter answers 429 with an English message and no code.
  if (error.status === 429) return MESSAGES.TOO_MANY_ATTEMPTS as string;
  // Only our server's nested message is known to be Vietnamese; better-auth's top-level one is English.
  return error.error?.message ?? FALLBACK_MESSAGE;
}
