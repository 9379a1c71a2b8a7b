import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  newClient,
  rawRequest,
  uniqueId,
  useContractEnv,
} from '../contract/helpers.ts';

/** A development token for `claims`: what `devToken` builds, an unsigned JWT with the signature `devtoken`. */
function unsignedToken(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.devtoken`;
}

describe('disable_auth_checks', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('is off by default: an unsigned development token is refused over the socket and over REST', async () => {
    expect((await env().admin.getAppSettings()).app?.disable_auth_checks).toBe(false);
    const id = uniqueId('gia-mao');
    const client = newClient(env());
    await expectStreamError(client.connectUser({ id }, client.devToken(id)), { code: 43 });
    const response = await rawRequest(env(), {
      method: 'GET',
      path: '/app',
      token: unsignedToken({ user_id: id }),
    });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 43 });
  });

  it('can only be switched server-side: a user token gets code 17, a wrong value code 4', async () => {
    const id = uniqueId('nguoi-dung');
    await connectUser(env(), id);
    for (const [body, code] of [
      [{ disable_auth_checks: true }, 17],
      [{ disable_auth_checks: 'yes' }, 4],
    ] as const) {
      const response = await rawRequest(env(), { method: 'PATCH', path: '/app', userId: id, body });
      expect(response.body, JSON.stringify(body)).toMatchObject({ code });
    }
    await expectStreamError(env().admin.updateAppSettings({ disable_auth_checks: 1 as never }), {
      code: 4,
    });
    expect((await env().admin.getAppSettings()).app?.disable_auth_checks).toBe(false);
  });

  it('turned on server-side, accepts development tokens but never as the server; turned off, refuses them again', async () => {
    const id = uniqueId('nha-phat-trien');
    await env().admin.updateAppSettings({ disable_auth_checks: true });
    try {
      expect((await env().admin.getAppSettings()).app?.disable_auth_checks).toBe(true);
      const dev = newClient(env());
      await dev.connectUser({ id }, dev.devToken(id));
      expect(dev.user?.id).toBe(id);
      const asServer = await rawRequest(env(), {
        method: 'PATCH',
        path: '/app',
        token: unsignedToken({ server: true }),
        body: { disable_auth_checks: false },
      });
      expect(asServer.body).toMatchObject({ code: 43 });
      await dev.disconnectUser();
    } finally {
      await env().admin.updateAppSettings({ disable_auth_checks: false });
    }
    const again = newClient(env());
    await expectStreamError(again.connectUser({ id }, again.devToken(id)), { code: 43 });
  });
});
