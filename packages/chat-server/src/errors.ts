import { isDatabaseUnavailable } from './db/unavailable.ts';

/**
 * Stream's numbered API error codes (stream-chat `src/errors.ts: APIErrorCodes`) with the HTTP status Stream pairs
 * them with. The client reads `code` (40 triggers a token refresh) and `message` (code 4 + "already exists" makes
 * stream-chat-react treat a re-sent message as delivered).
 */
export const ErrorCodes = {
  InternalSystemError: { code: -1, status: 500 },
  /** Ours, not in Stream's table: the database cannot be reached for now (restart, failover, overload). */
  ServiceUnavailableError: { code: -1, status: 503 },
  AccessKeyError: { code: 2, status: 401 },
  AuthenticationFailedError: { code: 3, status: 401 },
  InputError: { code: 4, status: 400 },
  AuthError: { code: 5, status: 401 },
  DuplicateUsernameError: { code: 6, status: 400 },
  RateLimitError: { code: 9, status: 429 },
  DoesNotExistError: { code: 16, status: 404 },
  NotAllowedError: { code: 17, status: 403 },
  EventNotSupportedError: { code: 18, status: 400 },
  ChannelFeatureNotSupportedError: { code: 19, status: 400 },
  MessageTooLongError: { code: 20, status: 400 },
  MultipleNestingLevelError: { code: 21, status: 400 },
  PayloadTooBigError: { code: 22, status: 413 },
  RequestTimeoutError: { code: 23, status: 408 },
  AuthErrorTokenExpired: { code: 40, status: 401 },
  AuthErrorTokenNotValidYet: { code: 41, status: 401 },
  AuthErrorTokenUsedBeforeIssuedAt: { code: 42, status: 401 },
  AuthErrorTokenSignatureInvalid: { code: 43, status: 401 },
  ConnectionIDNotFoundError: { code: 46, status: 400 },
  CoolDownError: { code: 60, status: 403 },
} as const;

export type ErrorName = keyof typeof ErrorCodes;

const MORE_INFO = 'https://getstream.io/chat/docs/api_errors_response';

/** Stream's error body: every non-2xx REST reply and the websocket `{error}` frame carry exactly this. */
export interface ApiErrorBody {
  code: number;
  message: string;
  StatusCode: number;
  duration: string;
  more_info: string;
  details: unknown[];
}

/** The one error type of the chat server. Feature code raises it through the `chatError` factories below. */
export class ChatError extends Error {
  readonly code: number;
  readonly statusCode: number;

  constructor(name: ErrorName, message: string) {
    super(message);
    this.name = 'ChatError';
    this.code = ErrorCodes[name].code;
    this.statusCode = ErrorCodes[name].status;
  }

  toBody(durationMs = 0): ApiErrorBody {
    return {
      code: this.code,
      message: this.message,
      StatusCode: this.statusCode,
      duration: formatDuration(durationMs),
      more_info: MORE_INFO,
      details: [],
    };
  }
}

export function formatDuration(ms: number): string {
  return `${ms.toFixed(2)}ms`;
}

export const chatError = {
  input: (message: string) => new ChatError('InputError', message),
  notFound: (message: string) => new ChatError('DoesNotExistError', message),
  notAllowed: (message: string) => new ChatError('NotAllowedError', message),
  auth: (message: string) => new ChatError('AuthError', message),
  accessKey: (message: string) => new ChatError('AccessKeyError', message),
  tokenExpired: () =>
    new ChatError('AuthErrorTokenExpired', 'JWTAuth error: token is expired (exp)'),
  tokenNotValidYet: () =>
    new ChatError('AuthErrorTokenNotValidYet', 'JWTAuth error: token is not valid yet (nbf)'),
  tokenUsedBeforeIssued: () =>
    new ChatError(
      'AuthErrorTokenUsedBeforeIssuedAt',
      'JWTAuth error: token used before issue at (iat)',
    ),
  tokenSignature: () =>
    new ChatError('AuthErrorTokenSignatureInvalid', 'JWTAuth error: signature is not valid'),
  messageTooLong: (message: string) => new ChatError('MessageTooLongError', message),
  payloadTooBig: (message: string) => new ChatError('PayloadTooBigError', message),
  featureNotSupported: (message: string) =>
    new ChatError('ChannelFeatureNotSupportedError', message),
  eventNotSupported: (message: string) => new ChatError('EventNotSupportedError', message),
  nesting: (message: string) => new ChatError('MultipleNestingLevelError', message),
  cooldown: (message: string) => new ChatError('CoolDownError', message),
  connectionNotFound: (message: string) => new ChatError('ConnectionIDNotFoundError', message),
  rateLimited: (message: string) => new ChatError('RateLimitError', message),
  internal: () => new ChatError('InternalSystemError', 'Internal Server Error'),
  unavailable: () =>
    new ChatError(
      'ServiceUnavailableError',
      'The chat service is temporarily unavailable (its database cannot be reached); try again shortly',
    ),
};

/**
 * Anything that is not a ChatError becomes -1/500 with a generic message, or -1/503 when the database cannot be
 * reached (the caller may retry); the original only goes to the log.
 */
export function toChatError(error: unknown): ChatError {
  if (error instanceof ChatError) return error;
  return isDatabaseUnavailable(error) ? chatError.unavailable() : chatError.internal();
}
