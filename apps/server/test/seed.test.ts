import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_USERS, DEMO_USER_PASSWORD } from '../src/seed/demo-accounts.ts';
import { apiRequest, signIn, signedInCookie, startApp, tempDir, testConfig } from './harness.ts';

interface ListedUser {
  id: string;
  email: string;
  daoHieu: string;
  role: string;
  tuVi: number;
  balance: number;
}

async function listAll(
  app: Awaited<ReturnType<typeof startApp>>,
  cookie: string,
): Promise<ListedUser[]> {
  return (await apiRequest(app, 'GET', '/api/admin/users?limit=100', { cookie })).json().users;
}

describe('demo seed', () => {
  it('creates the demo admin and demo users across realms on first start', async () => {
    const app = await startApp(testConfig({ SEED_DEMO: 'true' }));
    const adminCookie = await signedInCookie(app, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const me = (await apiRequest(app, 'GET', '/api/me', { cookie: adminCookie })).json();
    expect(me).toMatchObject({
      daoHieu: 'Chưởng Môn',
      role: 'admin',
      tuVi: 123_456,
      balance: 8_888_888,
    });

    const users = await listAll(app, adminCookie);
    expect(users).toHaveLength(1 + DEMO_USERS.length);
    expect(DEMO_USERS.length).toBeGreaterThanOrEqual(4);
    expect(DEMO_USERS.length).toBeLessThanOrEqual(6);
    for (const demo of DEMO_USERS) {
      expect(users).toContainEqual(
        expect.objectContaining({
          email: demo.email,
          daoHieu: demo.daoHieu,
          role: 'user',
          tuVi: demo.tuVi,
        }),
      );
    }
    expect(users.map((user) => user.daoHieu)).toEqual(
      expect.arrayContaining(['Lăng Phong', 'Tử Yên', 'Mặc Trần', 'Bạch Vân']),
    );
  });

  it('lets every demo user sign in with the demo password', async () => {
    const app = await startApp(testConfig({ SEED_DEMO: 'true' }));
    for (const demo of DEMO_USERS) {
      expect(
        (await signIn(app, { email: demo.email, password: DEMO_USER_PASSWORD })).statusCode,
      ).toBe(200);
    }
  });

  it('never duplicates or overwrites on later starts', async () => {
    const dir = tempDir();
    const config = testConfig({ SEED_DEMO: 'true' }, dir);
    const first = await startApp(config);
    const adminCookie = await signedInCookie(first, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const before = await listAll(first, adminCookie);
    const langPhong = before.find((user) => user.email === 'lang.phong@daohuu.local');
    expect(langPhong).toBeDefined();
    await apiRequest(first, 'PATCH', `/api/admin/users/${langPhong?.id}`, {
      cookie: adminCookie,
      body: { tuVi: 9_999, balance: 1 },
    });
    await apiRequest(first, 'PATCH', '/api/me', {
      cookie: adminCookie,
      body: { daoHieu: 'Tông Chủ' },
    });
    await first.close();

    const second = await startApp(config);
    const cookie = await signedInCookie(second, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const after = await listAll(second, cookie);
    expect(after).toHaveLength(before.length);
    expect(after.find((user) => user.email === 'lang.phong@daohuu.local')).toMatchObject({
      tuVi: 9_999,
      balance: 1,
    });
    expect(after.find((user) => user.email === DEMO_ADMIN.email)?.daoHieu).toBe('Tông Chủ');
  });

  it('creates no accounts when SEED_DEMO is false', async () => {
    const app = await startApp(testConfig({ SEED_DEMO: 'false' }));
    const response = await signIn(app, { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password });
    expect(response.statusCode).toBe(401);
  });
});
