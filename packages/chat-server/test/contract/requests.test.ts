import { describe, expect, it } from 'vitest';
import {
  createChannelAsServer,
  createUsers,
  expectStreamErrorBody,
  rawRequest,
  signJwt,
  uniqueId,
  useContractEnv,
} from './helpers.ts';

describe('requests as every Stream client sends them', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('reads an empty body sent as application/json as an empty object, as server-side SDKs send DELETE', async () => {
    const ownerId = uniqueId('chu-tri');
    await createUsers(env(), [ownerId]);
    const channelId = uniqueId('tinh-that');
    await createChannelAsServer(env(), 'messaging', channelId, ownerId, { members: [ownerId] });

    const response = await rawRequest(env(), {
      method: 'DELETE',
      path: `/channels/messaging/${channelId}`,
      token: signJwt({ server: true }, env().server.apiSecret),
      body: '',
      headers: { 'Content-Type': 'application/json' },
    });

    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect((response.body as { channel: { deleted_at?: string } }).channel.deleted_at).toEqual(
      expect.any(String),
    );
  });

  it('still refuses a body that is only malformed JSON with code 4', async () => {
    const response = await rawRequest(env(), {
      method: 'POST',
      path: '/channels',
      token: signJwt({ server: true }, env().server.apiSecret),
      body: '{"filter_conditions":',
    });
    expectStreamErrorBody(response, 4, 400);
  });

  it('answers an unknown path with code 16 naming the method and the path', async () => {
    const response = await rawRequest(env(), {
      method: 'POST',
      path: '/khong-co/duong-nay',
      token: signJwt({ server: true }, env().server.apiSecret),
      body: {},
    });
    expectStreamErrorBody(response, 16, 404);
    expect((response.body as { message: string }).message).toContain('POST /khong-co/duong-nay');
  });

  it('answers an unknown path with code 16 for an anonymous caller too, not as a refused route', async () => {
    const response = await rawRequest(env(), {
      method: 'POST',
      path: '/khong-co/an-danh',
      body: {},
    });
    expectStreamErrorBody(response, 16, 404);
    expect((response.body as { message: string }).message).toContain('POST /khong-co/an-danh');
  });
});
