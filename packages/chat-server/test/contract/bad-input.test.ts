import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  expectStreamError,
  expectStreamErrorBody,
  forgeToken,
  ids,
  rawRequest,
  sendText,
  signJwt,
  uniqueId,
  useContractEnv,
  watchChannel,
} from './helpers.ts';
import type { RawResponse } from './helpers.ts';

describe('bad input', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  /** A channel of alice and bob holding one message, plus a way to read its messages back server-side. */
  async function seeded(prefix: string) {
    const aliceId = uniqueId(`${prefix}-a`);
    const bobId = uniqueId(`${prefix}-b`);
    const alice = await connectUser(env(), aliceId);
    await createUsers(env(), [bobId]);
    const channelId = uniqueId(prefix);
    const channel = await watchChannel(alice, 'messaging', channelId, {
      members: [aliceId, bobId],
    });
    const original = await sendText(channel, 'Nguyên bản');
    const storedTexts = async () => {
      const { messages } = await env()
        .admin.channel('messaging', channelId)
        .query({ messages: { limit: 100 } });
      return messages.map((message) => message.text);
    };
    return { aliceId, bobId, alice, channel, channelId, original, storedTexts };
  }

  const messagePath = (channelId: string) => `/channels/messaging/${channelId}/message`;

  it('answers malformed JSON with code 4 and stores nothing', async () => {
    const { aliceId, channelId, storedTexts } = await seeded('json');

    const response = await rawRequest(env(), {
      method: 'POST',
      path: messagePath(channelId),
      userId: aliceId,
      body: '{"message": {"text": "đứt đoạn"',
    });

    expectStreamErrorBody(response, 4, 400);
    expect(await storedTexts()).toEqual(['Nguyên bản']);
  });

  it('answers fields of the wrong type with code 4 and stores nothing', async () => {
    const { aliceId, channelId, storedTexts } = await seeded('types');

    const cases: RawResponse[] = [
      await rawRequest(env(), {
        method: 'POST',
        path: messagePath(channelId),
        userId: aliceId,
        body: { message: 'chữ' },
      }),
      await rawRequest(env(), {
        method: 'POST',
        path: messagePath(channelId),
        userId: aliceId,
        body: { message: { text: 123, id: randomUUID() } },
      }),
      await rawRequest(env(), {
        method: 'POST',
        path: messagePath(channelId),
        userId: aliceId,
        body: { message: { text: 'ok', attachments: 'không phải mảng' } },
      }),
      await rawRequest(env(), {
        method: 'POST',
        path: '/channels',
        userId: aliceId,
        body: { filter_conditions: 'tất cả', sort: [] },
      }),
      await rawRequest(env(), {
        method: 'PATCH',
        path: '/users',
        userId: aliceId,
        body: { users: 'ta' },
      }),
    ];

    for (const response of cases) expectStreamErrorBody(response, 4, 400);
    expect(await storedTexts()).toEqual(['Nguyên bản']);
  });

  it('refuses an unknown channel type', async () => {
    const aliceId = uniqueId('type');
    await createUsers(env(), [aliceId]);

    const response = await rawRequest(env(), {
      method: 'POST',
      path: `/channels/khong-co-loai-nay/${uniqueId('x')}/query`,
      userId: aliceId,
      body: { data: {}, state: true },
    });

    const code = (response.body as { code?: number }).code;
    expect([4, 16]).toContain(code);
    expectStreamErrorBody(response, code ?? -1, code === 16 ? 404 : 400);
  });

  it('refuses channel ids with characters outside the allowed set, or longer than 64 characters', async () => {
    const aliceId = uniqueId('bad-id');
    const client = await connectUser(env(), aliceId);

    for (const id of ['co dau cach', 'dấu-tiếng-việt', 'a'.repeat(65)]) {
      const response = await rawRequest(env(), {
        method: 'POST',
        path: `/channels/messaging/${encodeURIComponent(id)}/query`,
        userId: aliceId,
        body: { data: { members: [aliceId] }, state: true },
      });
      expectStreamErrorBody(response, 4, 400);
    }
    expect(await client.queryChannels({ members: { $in: [aliceId] } })).toEqual([]);
  });

  it('refuses an oversized body with code 22 and HTTP 413 and stores nothing', async () => {
    const { aliceId, channelId, storedTexts } = await seeded('big');

    const response = await rawRequest(env(), {
      method: 'POST',
      path: messagePath(channelId),
      userId: aliceId,
      body: { message: { id: randomUUID(), text: 'x'.repeat(3 * 1024 * 1024) } },
    });

    expectStreamErrorBody(response, 22, 413);
    expect(await storedTexts()).toEqual(['Nguyên bản']);
  });

  it('refuses forged, foreign-secret and expired tokens on REST calls with codes 43, 43 and 40', async () => {
    const { aliceId, bobId, channelId, storedTexts } = await seeded('tokens');
    const body = { message: { id: randomUUID(), text: 'Mạo danh' } };
    const forged = forgeToken(env().admin.createToken(bobId), { user_id: aliceId });
    const foreign = signJwt({ user_id: aliceId }, 'some-other-secret');
    const expired = env().admin.createToken(aliceId, Math.floor(Date.now() / 1000) - 10);

    const send = (token: string) =>
      rawRequest(env(), {
        method: 'POST',
        path: messagePath(channelId),
        userId: aliceId,
        token,
        body,
      });

    expectStreamErrorBody(await send(forged), 43, 401);
    expectStreamErrorBody(await send(foreign), 43, 401);
    expectStreamErrorBody(await send(expired), 40, 401);
    expect(await storedTexts()).toEqual(['Nguyên bản']);
  });

  it('refuses a non-member reading or writing a members-only channel with code 17', async () => {
    const { channelId, storedTexts } = await seeded('outsider');
    const strangerId = uniqueId('ke-la');
    const stranger = await connectUser(env(), strangerId);

    const read = await rawRequest(env(), {
      method: 'POST',
      path: `/channels/messaging/${channelId}/query`,
      userId: strangerId,
      body: { state: true, messages: { limit: 10 } },
    });
    const write = await rawRequest(env(), {
      method: 'POST',
      path: messagePath(channelId),
      userId: strangerId,
      body: { message: { id: randomUUID(), text: 'Đột nhập' } },
    });

    expectStreamErrorBody(read, 17, 403);
    expectStreamErrorBody(write, 17, 403);
    await expectStreamError(
      stranger.channel('messaging', channelId).sendMessage({ text: 'Đột nhập lần nữa' }),
      {
        code: 17,
        status: 403,
      },
    );
    expect(await storedTexts()).toEqual(['Nguyên bản']);
  });

  it('refuses a user editing or deleting another user’s message with code 17 and leaves it unchanged', async () => {
    const { bobId, channelId, original, alice } = await seeded('edit');
    const bob = await connectUser(env(), bobId);
    await watchChannel(bob, 'messaging', channelId);

    const raw = await rawRequest(env(), {
      method: 'POST',
      path: `/messages/${original.id}`,
      userId: bobId,
      body: { message: { id: original.id, text: 'Sửa trộm' } },
    });
    expectStreamErrorBody(raw, 17, 403);
    await expectStreamError(bob.updateMessage({ id: original.id, text: 'Sửa trộm lần hai' }), {
      code: 17,
      status: 403,
    });
    await expectStreamError(
      bob.partialUpdateMessage(original.id, { set: { text: 'Sửa một phần' } }),
      {
        code: 17,
        status: 403,
      },
    );
    await expectStreamError(bob.deleteMessage(original.id), { code: 17, status: 403 });

    const { message } = await alice.getMessage(original.id);
    expect(message).toMatchObject({ id: original.id, text: 'Nguyên bản', type: 'regular' });
    expect(message.updated_at).toBe(original.updated_at);
  });

  it('keeps the channel readable and writable after every refused request', async () => {
    const { channel, alice, channelId } = await seeded('after');
    await rawRequest(env(), {
      method: 'POST',
      path: messagePath(channelId),
      userId: alice.userID,
      body: '{oops',
    });

    const next = await sendText(channel, 'Vẫn ổn');

    const { messages } = await env()
      .admin.channel('messaging', channelId)
      .query({ messages: { limit: 100 } });
    expect(ids(messages)).toContain(next.id);
  });
});
