import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connectUser, useContractEnv } from './helpers.ts';

const apiKey = `key-${randomBytes(4).toString('hex')}`;
const apiSecret = `secret-${randomBytes(16).toString('hex')}`;

describe('server-only user fields', () => {
  const env = useContractEnv({
    config: { apps: [{ key: apiKey, secret: apiSecret, serverOnlyUserFields: ['tu_vi'] }] },
  });

  it('ignores a server-only field sent in the client connect payload but keeps other custom fields', async () => {
    await env().admin.upsertUsers([{ id: 'lang-phong', name: 'Lăng Phong', tu_vi: 2300 }]);

    const client = await connectUser(env(), 'lang-phong', {
      user: { tu_vi: 999_999_999_999, dao_hieu: 'Thanh Vân' },
    });

    expect(client.user?.tu_vi).toBe(2300);
    const { users } = await env().admin.queryUsers({ id: 'lang-phong' });
    expect(users[0]?.tu_vi).toBe(2300);
    expect(users[0]?.dao_hieu).toBe('Thanh Vân');
  });

  it('still lets the server-side client set a server-only field', async () => {
    await env().admin.partialUpdateUser({ id: 'lang-phong', set: { tu_vi: 48_000 } });

    const { users } = await env().admin.queryUsers({ id: 'lang-phong' });
    expect(users[0]?.tu_vi).toBe(48_000);
  });
});
