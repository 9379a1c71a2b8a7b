import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN } from '../src/seed/demo-accounts.ts';
import { foldForSearch } from '../src/db/folded-search.ts';
import { apiRequest, signedInCookie, signedUpUser, signUp, startSharedApp } from './harness.ts';

let app: FastifyInstance;
let close: () => Promise<void>;
let cookie: string;

beforeAll(async () => {
  ({ app, close } = await startSharedApp({ SEED_DEMO: 'true', AUTH_RATE_LIMIT_MAX_PER_IP: '0' }));
  cookie = await signedInCookie(app, DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => close());

function search(q: string, as = cookie) {
  return apiRequest(app, 'GET', `/api/users/search?q=${encodeURIComponent(q)}`, { cookie: as });
}

function names(response: { json: () => { users: { daoHieu: string }[] } }): string[] {
  return response.json().users.map((user) => user.daoHieu);
}

describe('GET /api/users/search', () => {
  it('answers 401 UNAUTHENTICATED without a session', async () => {
    const response = await apiRequest(app, 'GET', '/api/users/search?q=Vân');
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('finds users by part of their đạo hiệu, with id, đạo hiệu, tu vi and image only', async () => {
    const response = await search('Mặc');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      users: [{ id: expect.any(String), daoHieu: 'Mặc Trần', tuVi: 1_500_000, image: null }],
    });
  });

  it.each([
    ['without diacritics', 'bach van'],
    ['in capitals', 'BẠCH VÂN'],
    ['with combining marks', 'Ba\u0323ch'],
  ])('matches %s', async (_label, query) => {
    expect(names(await search(query))).toEqual(['Bạch Vân']);
  });

  it('reads "đ" as "d", the way Vietnamese users type it', async () => {
    await signUp(app, {
      email: `dao.tam.${Date.now()}@example.vn`,
      password: 'mat-khau-dai',
      name: 'Đạo Tâm',
    });
    expect(names(await search('dao tam'))).toEqual(['Đạo Tâm']);
    expect(names(await search('đạo tâm'))).toEqual(['Đạo Tâm']);
  });

  it('lists names starting with the query before names that only contain it', async () => {
    const stamp = Date.now();
    await signUp(app, {
      email: `a.${stamp}@example.vn`,
      password: 'mat-khau-dai',
      name: 'Thanh Phong',
    });
    await signUp(app, {
      email: `b.${stamp}@example.vn`,
      password: 'mat-khau-dai',
      name: 'Phong Vân',
    });
    expect(names(await search('phong'))).toEqual(['Phong Vân', 'Lăng Phong', 'Thanh Phong']);
  });

  it('leaves the searcher out', async () => {
    expect(names(await search('Chưởng'))).toEqual([]);
  });

  it('treats % and _ as plain characters', async () => {
    expect(names(await search('%'))).toEqual([]);
    expect(names(await search('_'))).toEqual([]);
  });

  it('answers at most 20 users', async () => {
    const { cookie: searcher } = await signedUpUser(app);
    for (let index = 0; index < 21; index += 1) {
      await signUp(app, {
        email: `tim.kiem.${index}.${Date.now()}@example.vn`,
        password: 'mat-khau-dai',
        name: `Tìm Kiếm ${index}`,
      });
    }
    expect(names(await search('tim kiem', searcher))).toHaveLength(20);
  });

  it('refuses a query over 100 characters with 400 INVALID_QUERY', async () => {
    const response = await search('a'.repeat(101));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_QUERY');
  });

  it('refuses a repeated q with 400 INVALID_QUERY', async () => {
    const response = await apiRequest(app, 'GET', '/api/users/search?q=a&q=b', { cookie });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_QUERY');
  });
});

describe('foldForSearch', () => {
  it.each([
    ['Đạo Hữu', 'dao huu'],
    ['Lục Thanh Y', 'luc thanh y'],
    ['Tử Yên', 'tu yen'],
    ['Nguyễn', 'nguyen'],
  ])('folds %j to %j', (input, expected) => {
    expect(foldForSearch(input)).toBe(expected);
  });
});
