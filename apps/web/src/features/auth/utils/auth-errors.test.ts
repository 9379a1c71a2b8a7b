import { describe, expect, it } from 'vitest';
import { authErrorMessage } from './auth-errors';

describe('authErrorMessage', () => {
  it('reads the code from the product server nested shape as well as the top level', () => {
    expect(
      authErrorMessage({ status: 401, error: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'x' } }),
    ).toBe('Email hoặc mật khẩu không đúng.');
  });

  it("falls back to the product server's Vietnamese message for a code it does not know", () => {
    expect(
      authErrorMessage({
        status: 403,
        code: 'INVALID_ORIGIN',
        message: 'Invalid origin',
        error: {
          code: 'INVALID_ORIGIN',
          message: 'Yêu cầu bị từ chối vì không xuất phát từ trang Đạo Hữu.',
        },
      }),
    ).toBe('Yêu cầu bị từ chối vì không xuất phát từ trang Đạo Hữu.');
  });

  it('never shows better-auth English text', () => {
    expect(authErrorMessage({ status: 400, code: 'WHATEVER', message: 'Something broke' })).toBe(
      'Đã có lỗi xảy ra. Vui lòng thử lại.',
    );
  });
});
