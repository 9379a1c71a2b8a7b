import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ChatError } from '../errors.ts';
import { TokenCache } from './token-cache.ts';
import { signUserToken, verifyToken } from './tokens.ts';

const secret = 'very-secret';
const now = 1_700_000_000;
const options = { secret, allowDevTokens: false, nowSeconds: now };

function sign(claims: object, key = secret, header: object = { alg: 'HS256', typ: 'JWT' }): string {
  const h = Buffer.from(JSON.stringify(header)).toString('base64url');
  const p = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const s = createHmac('sha256', key).update(`${h}.${p}`).digest('base64url');
  return `${h}.${p}.${s}`;
}

function codeOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof ChatError ? error.code : undefined;
  }
  return undefined;
}

describe('verifyToken', () => {
  it('accepts a user token signed with the app secret', () => {
    expect(verifyToken(sign({ user_id: 'alice' }), options)).toEqual({
      kind: 'user',
      userId: 'alice',
    });
  });

  it('accepts a server token', () => {
    expect(verifyToken(sign({ server: true }), options)).toEqual({ kind: 'server' });
  });

  it('refuses a token signed with the wrong secret with code 43', () => {
    expect(codeOf(() => verifyToken(sign({ user_id: 'alice' }, 'other'), options))).toBe(43);
  });

  it('refuses a token whose payload was changed after signing with code 43', () => {
    const [h, , s] = sign({ user_id: 'alice' }).split('.');
    const forged = `${h}.${Buffer.from('{"user_id":"mallory"}').toString('base64url')}.${s}`;
    expect(codeOf(() => verifyToken(forged, options))).toBe(43);
  });

  it('refuses a token with another algorithm with code 43', () => {
    expect(
      codeOf(() => verifyToken(sign({ user_id: 'alice' }, secret, { alg: 'none' }), options)),
    ).toBe(43);
  });

  it('reports an expired token with code 40, the code that makes the client refresh it', () => {
    expect(codeOf(() => verifyToken(sign({ user_id: 'alice', exp: now }), options))).toBe(40);
    expect(verifyToken(sign({ user_id: 'alice', exp: now + 1 }), options)).toEqual({
      kind: 'user',
      userId: 'alice',
      exp: now + 1,
    });
  });

  it('reports a token that is not valid yet with code 41', () => {
    expect(codeOf(() => verifyToken(sign({ user_id: 'alice', nbf: now + 60 }), options))).toBe(41);
  });

  it('reports a token issued in the future with code 42', () => {
    expect(codeOf(() => verifyToken(sign({ user_id: 'alice', iat: now + 60 }), options))).toBe(42);
    expect(verifyToken(sign({ user_id: 'alice', iat: now + 2 }), options).kind).toBe('user');
  });

  it('accepts development tokens only when the app disables auth checks', () => {
    const dev = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from('{"user_id":"alice"}').toString('base64')}.devtoken`;
    expect(codeOf(() => verifyToken(dev, options))).toBe(43);
    expect(verifyToken(dev, { ...options, allowDevTokens: true })).toEqual({
      kind: 'user',
      userId: 'alice',
    });
  });

  it('answers malformed tokens and tokens without a subject with code 5', () => {
    expect(codeOf(() => verifyToken('not-a-token', options))).toBe(5);
    expect(codeOf(() => verifyToken('a.b.c', options))).toBe(5);
    expect(codeOf(() => verifyToken(sign({ role: 'admin' }), options))).toBe(5);
  });
});

describe('signUserToken', () => {
  it('signs tokens that verify and whose payload a standard base64 decoder reads', () => {
    for (const userId of [
      'alice',
      'đạo-hữu',
      'user_with_underscores-and-dashes',
      'x@y.z',
      '???>>>',
    ]) {
      const token = signUserToken(secret, userId, now + 10);
      expect(verifyToken(token, options)).toEqual({ kind: 'user', userId, exp: now + 10 });
      const payload = token.split('.')[1]!;
      expect(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')).user_id).toBe(userId);
    }
  });

  it('refuses unsigned tokens (alg none) and tokens whose time claims are not numbers', () => {
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
      '{"user_id":"admin"}',
    ).toString('base64url')}.`;
    expect(codeOf(() => verifyToken(unsigned, options))).toBe(43);
    expect(
      codeOf(() => verifyToken(sign({ user_id: 'alice' }, secret, { alg: 'none' }), options)),
    ).toBe(43);
    expect(codeOf(() => verifyToken(sign({ user_id: 'alice', exp: `${now - 10}` }), options))).toBe(
      5,
    );
    expect(codeOf(() => verifyToken(sign({ server: true, nbf: 'later' }), options))).toBe(5);
  });

  it('keeps the expiry of server tokens, so a cached one still expires', () => {
    const cache = new TokenCache(10);
    const token = sign({ server: true, exp: now + 60 });
    const scope = { appId: 'app', checked: true };
    cache.set(token, scope, verifyToken(token, options));
    expect(cache.get(token, scope, now)).toEqual({ kind: 'server', exp: now + 60 });
    expect(cache.get(token, scope, now + 60)).toBeUndefined();
  });

  it('answers a cached token only for the app and the signature checking it was verified under', () => {
    const cache = new TokenCache(10);
    const token = sign({ user_id: 'alice' });
    cache.set(token, { appId: 'app', checked: false }, verifyToken(token, options));
    expect(cache.get(token, { appId: 'app', checked: false }, now)).toMatchObject({
      userId: 'alice',
    });
    expect(cache.get(token, { appId: 'app', checked: true }, now)).toBeUndefined();
    expect(cache.get(token, { appId: 'other', checked: false }, now)).toBeUndefined();
  });

  it('drops the oldest token when full, a token set again keeping its first place', () => {
    const cache = new TokenCache(2);
    const scope = { appId: 'app', checked: true };
    const [a, b, c] = ['a', 'b', 'c'].map((id) => sign({ user_id: id }));
    for (const token of [a!, b!, a!, c!]) cache.set(token, scope, verifyToken(token, options));
    expect(cache.get(a!, scope, now)).toBeUndefined();
    expect(cache.get(b!, scope, now)).toMatchObject({ userId: 'b' });
    expect(cache.get(c!, scope, now)).toMatchObject({ userId: 'c' });
  });
});
