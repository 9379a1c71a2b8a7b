import { AVATAR_MESSAGE, DAO_HIEU_LENGTH_MESSAGE } from '@daohuu/domain';
import type { ApiErrorBody } from '@daohuu/domain';

/**
 * The one error type of the product API. Every failure a client can see is an `AppError`; the error handler
 * (http/error-handler.ts) turns it into `{ "error": { "code", "message" } }` with `statusCode`. Messages are
 * Vietnamese because the web app shows them as they are; codes are stable and the web app maps them.
 */
export class AppError extends Error {
  readonly code: string;
  readonly statusCode: number;
  /** Extra response headers, e.g. Retry-After on 429. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.code = code;
    this.headers = headers;
  }
}

export function errorBody(code: string, message: string): ApiErrorBody {
  return { error: { code, message } };
}

export const INTERNAL_MESSAGE = 'Đã có lỗi xảy ra, vui lòng thử lại.';
export const TOO_MANY_ATTEMPTS_MESSAGE =
  'Đạo hữu đã thử quá nhiều lần. Vui lòng thử lại sau ít phút.';

/** Factories for every error the product API raises; feature code never builds an `AppError` by hand. */
export const appError = {
  unauthenticated: () => new AppError(401, 'UNAUTHENTICATED', 'Đạo hữu cần đăng nhập.'),
  forbidden: () => new AppError(403, 'FORBIDDEN', 'Đạo hữu không có quyền truy cập trang này.'),
  invalidOrigin: () =>
    new AppError(403, 'INVALID_ORIGIN', 'Yêu cầu bị từ chối vì không xuất phát từ trang Đạo Hữu.'),
  missingOrigin: () =>
    new AppError(
      403,
      'MISSING_OR_NULL_ORIGIN',
      'Yêu cầu bị từ chối vì không xuất phát từ trang Đạo Hữu.',
    ),
  userNotFound: () => new AppError(404, 'NOT_FOUND', 'Không tìm thấy người dùng.'),
  routeNotFound: () => new AppError(404, 'NOT_FOUND', 'Không tìm thấy địa chỉ này.'),
  /** `message` says which part of the đạo hiệu rule was broken (packages/domain, checkDaoHieu). */
  invalidName: (message: string = DAO_HIEU_LENGTH_MESSAGE) =>
    new AppError(400, 'INVALID_NAME', message),
  invalidImage: () => new AppError(400, 'INVALID_IMAGE', AVATAR_MESSAGE),
  invalidEmail: () => new AppError(400, 'INVALID_EMAIL', 'Email không hợp lệ.'),
  invalidPassword: () => new AppError(400, 'INVALID_PASSWORD', 'Mật khẩu không hợp lệ.'),
  invalidTuVi: () => new AppError(400, 'INVALID_TU_VI', 'Tu vi phải là số nguyên không âm.'),
  invalidBalance: () => new AppError(400, 'INVALID_BALANCE', 'Số dư phải là số nguyên không âm.'),
  invalidRole: () => new AppError(400, 'INVALID_ROLE', 'Vai trò không hợp lệ.'),
  cannotRemoveOwnAdmin: () =>
    new AppError(
      400,
      'CANNOT_REMOVE_OWN_ADMIN',
      'Đạo hữu không thể tự gỡ quyền quản trị của chính mình.',
    ),
  invalidBody: () => new AppError(400, 'INVALID_BODY', 'Dữ liệu gửi lên không hợp lệ.'),
  invalidJson: () => new AppError(400, 'INVALID_JSON', 'Dữ liệu gửi lên không phải JSON hợp lệ.'),
  invalidQuery: () => new AppError(400, 'INVALID_QUERY', 'Tham số truy vấn không hợp lệ.'),
  payloadTooLarge: () => new AppError(413, 'PAYLOAD_TOO_LARGE', 'Dữ liệu gửi lên quá lớn.'),
  unsupportedMediaType: () =>
    new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Định dạng dữ liệu gửi lên không được hỗ trợ.'),
  tooManyAttempts: (retryAfterSeconds: number) =>
    new AppError(429, 'TOO_MANY_ATTEMPTS', TOO_MANY_ATTEMPTS_MESSAGE, {
      'retry-after': String(retryAfterSeconds),
    }),
  tooManyRequests: (retryAfterSeconds: number) =>
    new AppError(
      429,
      'TOO_MANY_REQUESTS',
      'Đạo hữu thao tác quá nhanh. Vui lòng chờ giây lát rồi thử lại.',
      { 'retry-after': String(retryAfterSeconds) },
    ),
  badRequest: () => new AppError(400, 'BAD_REQUEST', 'Yêu cầu không hợp lệ.'),
  /** `field` is a JSON path such as `durationMinutes`: developers read it, users see the sentence. */
  invalidField: (field: string) =>
    new AppError(400, 'INVALID_BODY', `Dữ liệu gửi lên không hợp lệ (${field}).`),
  invalidQueryField: (field: string) =>
    new AppError(400, 'INVALID_QUERY', `Tham số truy vấn không hợp lệ (${field}).`),
  moderationNotFound: () =>
    new AppError(404, 'NOT_FOUND', 'Không tìm thấy mục kiểm duyệt, người dùng hoặc kênh này.'),
  moderationRefused: (message = 'Máy chủ trò chuyện từ chối thao tác này.') =>
    new AppError(400, 'CHAT_REFUSED', message),
  cannotBanSelf: () => new AppError(400, 'CANNOT_BAN_SELF', 'Đạo hữu không thể tự cấm chính mình.'),
  chatUnavailable: () =>
    new AppError(502, 'CHAT_UNAVAILABLE', 'Máy chủ trò chuyện chưa sẵn sàng, vui lòng thử lại.'),
};
