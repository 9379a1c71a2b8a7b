import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../src/auth/create-auth.ts';
import { migrateAppTables, openDatabase } from '../../src/db/open-database.ts';
import { findUserByEmail } from '../../src/profile/profile-repo.ts';
import { seedDemoData } from '../../src/seed/seed-demo.ts';
import {
  ORIGIN,
  apiRequest,
  newCredentials,
  signUp,
  signedInCookie,
  signedUpUser,
  startSharedApp,
  tempDir,
} from '../harness.ts';
import { DEMO_ADMIN } from '../../src/seed/demo-accounts.ts';

let app: FastifyInstance;
let close: () => Promise<void>;
let adminCookie: string;

beforeAll(async () => {
  ({ app, close } = await startSharedApp({ SEED_DEMO: 'true', AUTH_RATE_LIMIT_MAX_PER_IP: '0' }));
  adminCookie = await signedInCookie(app, DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => close());

/** Names a display must never carry: each is refused on every path that sets a name. */
const BAD_NAMES: [string, unknown][] = [
  ['10,000 characters', 'x'.repeat(10_000)],
  ['33 characters', 'a'.repeat(33)],
  ['a NUL character', 'Lăng\u0000Phong'],
  ['a newline', 'Lăng\nPhong'],
  ['a right-to-left override', 'Lăng\u202EgnohP'],
  ['a right-to-left isolate', 'Lăng\u2067Phong'],
  ['a zero-width space', 'Lăng\u200BPhong'],
  ['a line separator', 'Lăng\u2028Phong'],
  ['one character', 'A'],
  ['a number', 42],
];

/** Avatars no viewer's browser should ever be made to load. */
const BAD_IMAGES: [string, unknown][] = [
  ['a javascript: URL', 'javascript:alert(document.cookie)'],
  ['a data: URL', 'data:image/svg+xml,<svg onload="alert(1)"/>'],
  ['an off-site tracker', 'https://tracker.example/pixel.gif?who=admin'],
  ['a plain http URL', 'http://evil.example/a.png'],
  ['a protocol-relative URL', '//evil.example/a.png'],
  ['a same-origin path outside the uploads', '/api/auth/sign-out'],
  ['a path that climbs out of the uploads', '/chat/uploads/../../api/me'],
  ['an encoded climb out of the uploads', '/chat/uploads/%2e%2e/%2e%2e/api/me'],
  ['a 5,000-character path', `/chat/uploads/app/file/${'a'.repeat(5_000)}.png`],
  ['a number', 7],
];

/** better-auth's own profile endpoint, as `authClient.updateUser(…)` calls it. */
function updateUser(cookie: string, body: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/update-user',
    headers: { cookie, origin: ORIGIN },
    payload: body,
  });
}

async function profileOf(cookie: string) {
  return (await apiRequest(app, 'GET', '/api/me', { cookie })).json();
}

describe('#9 display names and avatars outside the rules', () => {
  it.each(BAD_NAMES)('sign-up refuses a name with %s', async (_label, name) => {
    const credentials = newCredentials();
    const response = await signUp(app, { ...credentials, name });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_NAME');
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: ORIGIN },
      payload: { email: credentials.email, password: credentials.password },
    });
    expect(signIn.statusCode).toBe(401);
  });

  it.each(BAD_IMAGES)('sign-up refuses an image that is %s', async (_label, image) => {
    const response = await signUp(app, { ...newCredentials(), image });
    expect(response.statusCode).toBe(400);
    // better-auth's own body schema already refuses a non-string image, as INVALID_BODY.
    expect(response.json().error.code).toBe(
      typeof image === 'string' ? 'INVALID_IMAGE' : 'INVALID_BODY',
    );
  });

  it.each(BAD_NAMES)('update-user cannot set a name with %s', async (_label, name) => {
    const { cookie, credentials } = await signedUpUser(app);
    const response = await updateUser(cookie, { name });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_NAME');
    expect((await profileOf(cookie)).daoHieu).toBe(credentials.name);
  });

  it.each(BAD_IMAGES)('update-user cannot set an image that is %s', async (_label, image) => {
    const { cookie } = await signedUpUser(app);
    const response = await updateUser(cookie, { image });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_IMAGE');
    expect((await profileOf(cookie)).image).toBeNull();
  });

  it.each(BAD_NAMES)('PATCH /api/me cannot set a name with %s', async (_label, daoHieu) => {
    const { cookie, credentials } = await signedUpUser(app);
    const response = await apiRequest(app, 'PATCH', '/api/me', { cookie, body: { daoHieu } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_NAME');
    expect((await profileOf(cookie)).daoHieu).toBe(credentials.name);
  });

  it('an admin cannot set a name or an image through the admin routes', async () => {
    const { cookie } = await signedUpUser(app);
    const { id } = await profileOf(cookie);
    for (const body of [
      { daoHieu: 'Lăng\u202EgnohP' },
      { name: 'x'.repeat(10_000) },
      { image: 'javascript:alert(1)' },
    ]) {
      const response = await apiRequest(app, 'PATCH', `/api/admin/users/${id}`, {
        cookie: adminCookie,
        body,
      });
      expect(response.statusCode).toBe(400);
    }
    expect(await profileOf(cookie)).toMatchObject({ image: null });
  });

  it('the demo seed is held to the same rule', async () => {
    const dir = tempDir();
    const database = openDatabase(dir);
    try {
      await migrateAppTables(database.db);
      const auth = await createAuth({
        sqlite: database.sqlite,
        secret: 'a'.repeat(32),
        publicUrl: ORIGIN,
        log: app.log,
      });
      const account = { ...DEMO_ADMIN, email: 'xau@daohuu.local', daoHieu: 'Chưởng\u202EnôM' };
      await expect(seedDemoData(auth, database.db, [account])).rejects.toThrow();
      expect(await findUserByEmail(database.db, account.email)).toBeUndefined();
    } finally {
      await database.close();
    }
  });

  it('keeps a valid name and an uploaded avatar, normalised', async () => {
    const { cookie } = await signedUpUser(app);
    const image = '/chat/uploads/app-1/f_123/dan-duoc.png';
    const response = await updateUser(cookie, { name: '  Ma\u0323\u0306c Trần  ', image });
    expect(response.statusCode).toBe(200);
    expect(await profileOf(cookie)).toMatchObject({ daoHieu: 'Mặc Trần', image });
    expect((await updateUser(cookie, { image: null })).statusCode).toBe(200);
    expect((await profileOf(cookie)).image).toBeNull();
  });
});
