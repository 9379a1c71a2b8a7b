/** The password rule: better-auth enforces the length on the server (apps/server), the sign-up form checks it first. */
export const MIN_PASSWORD_LENGTH = 8;

export const PASSWORD_TOO_SHORT_MESSAGE = `Mật khẩu phải có ít nhất ${MIN_PASSWORD_LENGTH} ký tự.`;
