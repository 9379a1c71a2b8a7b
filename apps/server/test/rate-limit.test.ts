import { describe, expect, it } from 'vitest';
import {
  ORIGIN,
  newCredentials,
  signIn,
  signUp,
  signedUpUser,
  startApp,
  testConfig,
} from './harness.ts';

const TOO_MANY = {
  code: 'TOO_MANY_ATTEMPTS',
  message: 'Đạo hữu đã thử quá nhiều lần. Vui lòng thử lại sau ít phút.',
};

describe('auth rate limits', () => {
  it('refuses the attempt after the per-IP limit with 429 TOO_MANY_ATTEMPTS, counting sign-ins and sign-ups', async () => {
    const app = await startApp(
      testConfig({ AUTH_RATE_LIMIT_MAX_PER_IP: '3', AUTH_RATE_LIMIT_MAX_FAILURES_PER_EMAIL: '0' }),
    );
    const ip = '203.0.113.7';
    expect((await signUp(app, newCredentials(), ip)).statusCode).toBe(200);
    expect(
      (await signIn(app, { email: 'a@example.vn', password: 'mat-khau-dai' }, ip)).statusCode,
    ).toBe(401);
    expect((await signUp(app, newCredentials(), ip)).statusCode).toBe(200);

    const refused = await signUp(app, newCredentials(), ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual(TOO_MANY);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // Another address is not affected.
    expect((await signUp(app, newCredentials(), '203.0.113.8')).statusCode).toBe(200);
  });

  it('makes one address wait after the failures allowed on an email, even for the right password', async () => {
    const app = await startApp(
      testConfig({ AUTH_RATE_LIMIT_MAX_FAILURES_PER_EMAIL: '3', AUTH_RATE_LIMIT_MAX_PER_IP: '0' }),
    );
    const { credentials } = await signedUpUser(app);
    const guesser = '198.51.100.1';
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await signIn(
        app,
        { email: credentials.email, password: 'mat-khau-sai' },
        guesser,
      );
      expect(response.statusCode).toBe(401);
    }
    const throttled = await signIn(
      app,
      { email: credentials.email.toUpperCase(), password: credentials.password },
      guesser,
    );
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().error).toEqual(TOO_MANY);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.headers['set-cookie']).toBeUndefined();
    // Another address, the owner's, signs in as usual.
    const owner = await signIn(
      app,
      { email: credentials.email, password: credentials.password },
      '203.0.113.20',
    );
    expect(owner.statusCode).toBe(200);
  });

  it('does not count successful sign-ins against the email', async () => {
    const app = await startApp(
      testConfig({ AUTH_RATE_LIMIT_MAX_FAILURES_PER_EMAIL: '2', AUTH_RATE_LIMIT_MAX_PER_IP: '0' }),
    );
    const { credentials } = await signedUpUser(app);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect(
        (await signIn(app, { email: credentials.email, password: credentials.password }))
          .statusCode,
      ).toBe(200);
    }
  });

  it('counts sign-ups naming a taken email against that email, from that address', async () => {
    const app = await startApp(
      testConfig({ AUTH_RATE_LIMIT_MAX_FAILURES_PER_EMAIL: '2', AUTH_RATE_LIMIT_MAX_PER_IP: '0' }),
    );
    const { credentials } = await signedUpUser(app);
    expect((await signUp(app, { ...newCredentials(), email: credentials.email })).statusCode).toBe(
      422,
    );
    expect((await signUp(app, { ...newCredentials(), email: credentials.email })).statusCode).toBe(
      422,
    );
    expect((await signUp(app, { ...newCredentials(), email: credentials.email })).statusCode).toBe(
      429,
    );
  });

  it('throttles change-password guesses of the current password like sign-in failures on that account', async () => {
    const app = await startApp(
      testConfig({ AUTH_RATE_LIMIT_MAX_FAILURES_PER_EMAIL: '2', AUTH_RATE_LIMIT_MAX_PER_IP: '0' }),
    );
    const { cookie, credentials } = await signedUpUser(app);
    const changePassword = (currentPassword: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: { origin: ORIGIN, cookie },
        payload: { currentPassword, newPassword: 'mat-khau-moi-dai' },
        remoteAddress: '198.51.100.9',
      });
    for (let attempt = 0; attempt < 2; attempt += 1)
      expect((await changePassword('mat-khau-sai')).statusCode).toBe(400);

    const throttled = await changePassword(credentials.password);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().error).toEqual(TOO_MANY);
    // Nothing changed: the old password still signs in, the new one does not.
    const other = '203.0.113.30';
    expect((await signIn(app, credentials, other)).statusCode).toBe(200);
    expect(
      (await signIn(app, { email: credentials.email, password: 'mat-khau-moi-dai' }, other))
        .statusCode,
    ).toBe(401);
  });

  it('leaves other routes alone', async () => {
    const app = await startApp(testConfig({ AUTH_RATE_LIMIT_MAX_PER_IP: '1' }));
    const { cookie } = await signedUpUser(app);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const session = await app.inject({
        method: 'GET',
        url: '/api/auth/get-session',
        headers: { cookie },
      });
      expect(session.statusCode).toBe(200);
    }
  });
});
