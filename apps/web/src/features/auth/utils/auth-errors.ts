import { DAO_HIEU_CHARACTERS_MESSAGE } from '@daohuu/domain';
import { t, type MessageKey } from '@/i18n';
import { daoHieuProblemMessage, passwordTooShortMessage } from './validation';

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

const MESSAGES: Record<string, MessageKey> = {
  INVALID_EMAIL_OR_PASSWORD: 'auth.errors.invalidCredentials',
  USER_ALREADY_EXISTS: 'auth.errors.emailTaken',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'auth.errors.emailTaken',
  PASSWORD_TOO_LONG: 'auth.errors.passwordTooLong',
  INVALID_EMAIL: 'auth.emailInvalid',
  TOO_MANY_ATTEMPTS: 'auth.errors.tooManyAttempts',
  NETWORK_ERROR: 'auth.errors.network',
};

function knownMessage(code: string | undefined, error: AuthClientError): string | null {
  if (code === 'PASSWORD_TOO_SHORT') return passwordTooShortMessage();
  // The server says which part of the đạo hiệu rule was broken (length, or a forbidden character).
  if (code === 'INVALID_NAME') {
    return daoHieuProblemMessage(
      error.error?.message === DAO_HIEU_CHARACTERS_MESSAGE ? 'characters' : 'length',
    );
  }
  const key = code ? MESSAGES[code] : undefined;
  return key ? t(key) : null;
}

/** Every auth failure is shown in the app's language; unknown codes get a generic sentence, never better-auth's. */
export function authErrorMessage(error: AuthClientError): string {
  const code = error.code ?? error.error?.code;
  const known = knownMessage(code, error);
  if (known) return known;
  // better-auth's own rate limiter answers 429 with an English message and no code.
  if (error.status === 429) return t('auth.errors.tooManyAttempts');
  // Only our server's nested message is known to be meant for people (in Vietnamese); better-auth's top-level
  // one is a developer's English.
  return error.error?.message ?? t('common.genericError');
}
