import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ORIGIN, newCredentials, signIn, signUp, startApp, testConfig } from '../harness.ts';

const TOO_MANY = {
  code: 'TOO_MANY_ATTEMPTS',
  message: 'Đạo hữu đã thử quá nhiều lần. Vui lòng thử lại sau ít phút.',
};

const OWNER_ADDRESS = '203.0.113.10';
const ATTACKER_ADDRESS = '198.51.100.66';

/** An account its owner created from OWNER_ADDRESS (so that address has signed in to it before). */
async function ownedAccount(app: FastifyInstance) {
  const credentials = newCredentials();
  const response = await signUp(app, credentials, OWNER_ADDRESS);
  expect(response.statusCode, response.body).toBe(200);
  return credentials;
}

function expectThrottled(response: LightMyRequestResponse): number {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.json().error).toEqual(TOO_MANY);
  expect(response.headers['set-cookie']).toBeUndefined();
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  return retryAfter;
}

/** A sign-in sent through a reverse proxy on the loopback address, which names the client in X-Forwarded-For. */
function signInThroughProxy(app: FastifyInstance, body: Record<string, unknown>, client: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: ORIGIN, 'x-forwarded-for': client },
    payload: body,
    remoteAddress: '127.0.0.1',
  });
}

describe('#11 locking an account out on demand', () => {
  it("an attacker's wrong passwords from one address do not keep the owner out", async () => {
    const app = await startApp(testConfig());
    const owner = await ownedAccount(app);
    for (let attempt = 0; attempt < 12; attempt += 1) {
      await signIn(app, { email: owner.email, password: `doan-mo-${attempt}` }, ATTACKER_ADDRESS);
    }
    const response = await signIn(
      app,
      { email: owner.email, password: owner.password },
      OWNER_ADDRESS,
    );
    expect(response.statusCode, response.body).toBe(200);
    // And the owner on a phone, from an address that never signed in, is not refused either.
    const elsewhere = await signIn(
      app,
      { email: owner.email, password: owner.password },
      '192.0.2.200',
    );
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
  });

  it('the attacker is throttled with 429 and Retry-After, even when a later guess is right', async () => {
    const app = await startApp(testConfig());
    const owner = await ownedAccount(app);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await signIn(app, { email: owner.email, password: 'sai' }, ATTACKER_ADDRESS);
      expect(wrong.statusCode).toBe(401);
    }
    expectThrottled(
      await signIn(app, { email: owner.email, password: owner.password }, ATTACKER_ADDRESS),
    );
  });

  it('wrong passwords from many addresses slow new addresses down but never keep the owner out at home', async () => {
    const app = await startApp(testConfig({ AUTH_RATE_LIMIT_ACCOUNT_FAILURES: '6' }));
    const owner = await ownedAccount(app);
    for (let bot = 0; bot < 8; bot += 1) {
      await signIn(app, { email: owner.email, password: `doan-${bot}` }, `198.51.100.${bot}`);
    }
    // A new address is slowed down (backoff), not locked out for the whole window.
    const retryAfter = expectThrottled(
      await signIn(app, { email: owner.email, password: 'doan-moi' }, '198.51.100.99'),
    );
    expect(retryAfter).toBeLessThanOrEqual(300);
    // The owner, from the address they signed in from before, is not refused.
    const home = await signIn(app, { email: owner.email, password: owner.password }, OWNER_ADDRESS);
    expect(home.statusCode, home.body).toBe(200);
  });

  it('one address cannot try password after password across many accounts', async () => {
    const app = await startApp(testConfig({ AUTH_RATE_LIMIT_MAX_PER_IP: '10' }));
    for (let account = 0; account < 10; account += 1) {
      const response = await signIn(
        app,
        { email: `nan-nhan-${account}@example.vn`, password: 'mat-khau-pho-bien' },
        ATTACKER_ADDRESS,
      );
      expect(response.statusCode).toBe(401);
    }
    expectThrottled(
      await signIn(
        app,
        { email: 'nan-nhan-moi@example.vn', password: 'mat-khau-pho-bien' },
        ATTACKER_ADDRESS,
      ),
    );
  });

  it('a forged X-Forwarded-For does not buy an attacker new addresses', async () => {
    const app = await startApp(testConfig({ AUTH_RATE_LIMIT_MAX_PER_IP: '5' }));
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await signInThroughProxy(
        app,
        { email: `nan-nhan-${attempt}@example.vn`, password: 'sai' },
        `198.51.100.${attempt}`,
      );
    }
    expectThrottled(
      await signInThroughProxy(
        app,
        { email: 'nan-nhan-moi@example.vn', password: 'sai' },
        '198.51.100.250',
      ),
    );
  });

  it.each(['127.0.0.1', '1'])(
    'behind a trusted proxy (TRUST_PROXY=%s), the attacker and the owner are told apart',
    async (trustProxy) => {
      const app = await startApp(testConfig({ TRUST_PROXY: trustProxy }));
      const owner = newCredentials();
      expect((await signUp(app, owner, '127.0.0.1')).statusCode).toBe(200);
      for (let attempt = 0; attempt < 8; attempt += 1) {
        await signInThroughProxy(app, { email: owner.email, password: 'sai' }, ATTACKER_ADDRESS);
      }
      expectThrottled(
        await signInThroughProxy(app, { email: owner.email, password: 'sai' }, ATTACKER_ADDRESS),
      );
      const response = await signInThroughProxy(
        app,
        { email: owner.email, password: owner.password },
        OWNER_ADDRESS,
      );
      expect(response.statusCode, response.body).toBe(200);
    },
  );
});
