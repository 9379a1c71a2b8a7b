import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import {
  EVENT_TIMEOUT_MS,
  connectUser,
  createUsers,
  expectStreamError,
  expectStreamErrorBody,
  rawRequest,
  sendText,
  uniqueId,
  useContractEnv,
  watchChannel,
} from '../contract/helpers.ts';
import type { ContractEnv, RawRequest } from '../contract/helpers.ts';

/** `{"$and":[…]}` nested `depth` times around one condition, as JSON text (the client cannot serialise 5,000). */
function nestedFilter(depth: number): string {
  return `${'{"$and":['.repeat(depth)}{"id":"x"}${']}'.repeat(depth)}`;
}

/** A value nested `depth` objects deep, as JSON text. */
function nestedValue(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Three lists of 1,000, 1,000 and 1 values: each within the per-list cap, 2,001 in all. */
function overValueCap(userId: string): Record<string, unknown> {
  const thousand = (prefix: string) => Array.from({ length: 1000 }, (_, i) => `${prefix}-${i}`);
  return {
    $or: [
      { members: { $in: [userId, ...thousand('a').slice(1)] } },
      { cid: { $in: thousand('b') } },
      { id: { $in: ['c'] } },
    ],
  };
}

/** A forged `next` cursor in each of the formats our list endpoints hand out, pointing at offset 1e30. */
const hugeCursor = {
  json: Buffer.from(JSON.stringify({ offset: 1e30 })).toString('base64url'),
  reminders: Buffer.from(JSON.stringify({ o: 1e30 })).toString('base64url'),
  threads: Buffer.from('1e30').toString('base64url'),
};

/**
 * A user with a channel holding one message, one reply, one reaction, one poll and one reminder; `stored()` reads
 * what is stored back server-side, to prove refused requests changed nothing.
 */
async function seeded(env: ContractEnv) {
  const userId = uniqueId('tu-si');
  const client = await connectUser(env, userId, { user: { name: 'Tu Sĩ' } });
  const channelId = uniqueId('dong-phu');
  const channel = await watchChannel(client, 'messaging', channelId, {
    members: [userId],
    name: 'Động Phủ',
  } as never);
  const message = await sendText(channel, 'Bế quan tu luyện');
  await sendText(channel, 'Trả lời', { parent_id: message.id });
  await channel.sendReaction(message.id, { type: 'like' });
  const { poll } = await client.createPoll({ name: 'Chọn pháp bảo', options: [{ text: 'Kiếm' }] });
  await client.createReminder({ messageId: message.id });
  const stored = async () => {
    const state = await env.admin
      .channel('messaging', channelId)
      .query({ messages: { limit: 100 }, members: { limit: 10 } });
    const { users } = await env.admin.queryUsers({ id: userId });
    return {
      channel: {
        name: state.channel.name,
        updated_at: state.channel.updated_at,
        x: (state.channel as unknown as Record<string, unknown>).x,
      },
      messages: state.messages.map((m) => ({
        id: m.id,
        text: m.text,
        pinned: m.pinned,
        reactions: m.reaction_counts,
        updated_at: m.updated_at,
      })),
      members: state.members.map((m) => m.user_id),
      user: users.map((u) => ({ name: u.name, updated_at: u.updated_at })),
    };
  };
  return { userId, client, channel, channelId, message, poll, stored };
}

/** Sends `request` as raw HTTP (for bodies the client cannot produce) and expects code 4 in Stream's shape. */
async function expectInputError(env: ContractEnv, request: RawRequest): Promise<void> {
  expectStreamErrorBody(await rawRequest(env, request), 4, 400);
}

describe('#15 malformed input gets code 4, never a 500', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('refuses a filter nested 1,000 deep on query channels', async () => {
    const { client, stored } = await seeded(env());
    const before = await stored();
    const deep = JSON.parse(nestedFilter(1000)) as Record<string, unknown>;

    await expectStreamError(client.queryChannels(deep), { code: 4, status: 400 });
    expect(await stored()).toEqual(before);
  });

  it('refuses a filter nested 5,000 deep on query channels', async () => {
    const { userId } = await seeded(env());

    await expectInputError(env(), {
      method: 'POST',
      path: '/channels',
      userId,
      body: `{"filter_conditions":${nestedFilter(5000)},"sort":[]}`,
    });
  });

  it('refuses custom data nested 5,000 deep on messages, channels, users, members, reactions, events and polls', async () => {
    const { userId, channelId, message, stored } = await seeded(env());
    const before = await stored();
    const deep = nestedValue(5000);
    const cases: RawRequest[] = [
      {
        method: 'POST',
        path: `/channels/messaging/${channelId}/message`,
        body: `{"message":{"id":"${randomUUID()}","text":"sâu","x":${deep}}}`,
      },
      { method: 'POST', path: `/channels/messaging/${channelId}`, body: `{"data":{"x":${deep}}}` },
      {
        method: 'PATCH',
        path: `/channels/messaging/${channelId}`,
        body: `{"set":{"x":${deep}}}`,
      },
      {
        method: 'PATCH',
        path: '/users',
        body: `{"users":[{"id":"${userId}","set":{"x":${deep}}}]}`,
      },
      {
        method: 'PATCH',
        path: `/channels/messaging/${channelId}/member`,
        body: `{"set":{"x":${deep}}}`,
      },
      {
        method: 'POST',
        path: `/messages/${message.id}/reaction`,
        body: `{"reaction":{"type":"love","x":${deep}}}`,
      },
      {
        method: 'POST',
        path: `/channels/messaging/${channelId}/event`,
        body: `{"event":{"type":"tu-luyen","x":${deep}}}`,
      },
      { method: 'POST', path: '/polls', body: `{"name":"sâu","x":${deep}}` },
    ];
    for (const request of cases) await expectInputError(env(), { ...request, userId });
    expect(await stored()).toEqual(before);
  });

  it('refuses user data nested 500 deep on the websocket handshake with an error frame', async () => {
    const userId = uniqueId('ws-sau');
    const url = new URL(`${env().server.baseURL.replace(/^http/, 'ws')}/connect`);
    url.searchParams.set('api_key', env().server.apiKey);
    url.searchParams.set('authorization', env().admin.createToken(userId));
    url.searchParams.set('stream-auth-type', 'jwt');
    url.searchParams.set(
      'json',
      `{"user_id":"${userId}","user_details":{"id":"${userId}","x":${nestedValue(500)}}}`,
    );
    const socket = new WebSocket(url);
    const frame = await new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no frame')), EVENT_TIMEOUT_MS);
      socket.once('message', (data) => {
        clearTimeout(timer);
        resolve(JSON.parse(String(data)));
      });
      socket.once('error', reject);
    });
    socket.terminate();

    expect(frame).toMatchObject({ error: { code: 4, StatusCode: 400 } });
    const { users } = await env().admin.queryUsers({ id: userId });
    expect(users).toEqual([]);
  });

  it('refuses $in with 40,000 values and $or with 20,000 branches', async () => {
    const { client, userId } = await seeded(env());
    const many = Array.from({ length: 40_000 }, (_, i) => `dao-huu-${i}`);

    await expectStreamError(client.queryChannels({ members: { $in: many } }), {
      code: 4,
      status: 400,
    });
    await expectStreamError(
      client.queryChannels({ $or: many.slice(0, 20_000).map((id) => ({ id })) } as never),
      { code: 4, status: 400 },
    );
    // Just over each filter cap, well inside the body's own limits.
    await expectStreamError(client.queryChannels(overValueCap(userId)), {
      code: 4,
      status: 400,
      message: /more than 2000 values/,
    });
    await expectStreamError(
      client.queryChannels({ $or: many.slice(0, 101).map((id) => ({ id })) } as never),
      { code: 4, status: 400, message: /at most 100/ },
    );
    await expectStreamError(client.queryChannels(JSON.parse(nestedFilter(9))), {
      code: 4,
      status: 400,
      message: /too deeply/,
    });
  });

  it('still answers filters within the caps', async () => {
    const { client, userId, channelId } = await seeded(env());
    const others = Array.from({ length: 999 }, (_, i) => `khach-${i}`);

    const wide = await client.queryChannels({ members: { $in: [userId, ...others] } });
    const deep = await client.queryChannels({
      ...(JSON.parse(nestedFilter(7)) as object),
      $or: [{ id: channelId }, { id: 'khong-co' }],
    } as never);
    const exact = await client.queryChannels({ members: { $eq: [userId] } } as never);

    expect(wide.map((c) => c.id)).toEqual([channelId]);
    expect(deep).toEqual([]);
    expect(exact.map((c) => c.id)).toEqual([channelId]);
  });

  it('refuses an over-wide or over-long filter on every other endpoint that takes one', async () => {
    const { client, userId, message, poll, channel } = await seeded(env());
    const wide = overValueCap(userId);
    // GET endpoints carry the filter in the URL, which must stay under Node's 16 KiB header limit.
    const branchy = { $or: Array.from({ length: 101 }, (_, i) => ({ id: `x-${i}` })) };
    const long = 'x'.repeat(5001);
    const refused = {
      code: 4,
      status: 400,
      message: /more than 2000 values|at most 100 are allowed|longer than 5000/,
    };

    await expectStreamError(client.queryUsers(branchy as never), refused);
    await expectStreamError(channel.queryMembers(branchy as never), refused);
    await expectStreamError(client.queryChannels({ name: { $autocomplete: long } }), refused);
    await expectStreamError(
      client.search({ members: { $in: [userId] } }, { text: { $q: long } }),
      refused,
    );
    await expectStreamError(client.search({ members: { $in: [userId] } }, long), refused);
    await expectStreamError(client.queryThreads({ filter: wide as never }), refused);
    await expectStreamError(client.queryReactions(message.id, wide as never), refused);
    await expectStreamError(client.queryPolls(wide as never), refused);
    await expectStreamError(client.queryPollVotes(poll.id, wide as never), refused);
    await expectStreamError(client.queryReminders({ filter: wide as never }), refused);
    await expectStreamError(client.queryDrafts({ filter: wide as never }), refused);
  });

  it('refuses numbers a column cannot hold in a filter', async () => {
    const { client } = await seeded(env());

    await expectStreamError(client.queryChannels({ member_count: { $gt: 1e308 } }), {
      code: 4,
      status: 400,
    });
    await expectStreamError(client.queryChannels({ member_count: { $gt: 2.5 } }), {
      code: 4,
      status: 400,
    });
  });

  it('refuses a sort field named __proto__, constructor or prototype on every sorted endpoint', async () => {
    const { client, userId, channel, poll } = await seeded(env());
    const refused = { code: 4, status: 400 };

    for (const field of ['__proto__', 'constructor', 'prototype']) {
      const sort = [{ [field]: 1 }] as never;
      await expectStreamError(client.queryChannels({ members: { $in: [userId] } }, sort), refused);
      await expectStreamError(client.queryUsers({ id: userId }, sort), refused);
      await expectStreamError(channel.queryMembers({}, sort), refused);
      await expectStreamError(client.queryPollVotes(poll.id, {}, sort), refused);
      await expectStreamError(client.queryReminders({ sort }), refused);
      await expectStreamError(client.queryDrafts({ sort }), refused);
    }
  });

  it('refuses more than 10 sort fields', async () => {
    const { client, userId } = await seeded(env());
    const sort = Array.from({ length: 11 }, (_, i) => ({ [`f${i}`]: 1 })) as never;

    await expectStreamError(client.queryUsers({ id: userId }, sort), { code: 4, status: 400 });
  });

  it('refuses a huge offset on replies, reactions and every offset-paged list', async () => {
    const { client, channel, message, userId } = await seeded(env());
    const refused = { code: 4, status: 400 };

    await expectStreamError(channel.getReplies(message.id, { offset: 1e30 } as never), refused);
    await expectStreamError(channel.getReactions(message.id, { offset: 1e30 }), refused);
    await expectStreamError(channel.getReactions(message.id, { limit: 1e30 }), refused);
    await expectStreamError(channel.getReplies(message.id, { limit: -1 }), refused);
    await expectStreamError(
      client.queryChannels({ members: { $in: [userId] } }, [], { offset: 1e30 }),
      refused,
    );
    await expectStreamError(client.queryUsers({ id: userId }, [], { offset: 1e30 }), refused);
    await expectStreamError(channel.queryMembers({}, [], { offset: 1e30 }), refused);
    await expectStreamError(
      client.search({ members: { $in: [userId] } }, 'tu', { offset: 1e30 }),
      refused,
    );
  });

  it('refuses forged cursors pointing far past the end on every cursor-paged list', async () => {
    const { client, message, poll } = await seeded(env());
    const refused = { code: 4, status: 400 };

    await expectStreamError(client.queryThreads({ next: hugeCursor.threads }), refused);
    await expectStreamError(
      client.queryReactions(message.id, {}, [], { next: hugeCursor.json }),
      refused,
    );
    await expectStreamError(client.queryPolls({}, [], { next: hugeCursor.json }), refused);
    await expectStreamError(
      client.queryPollVotes(poll.id, {}, [], { next: hugeCursor.json }),
      refused,
    );
    await expectStreamError(client.queryDrafts({ next: hugeCursor.json }), refused);
    await expectStreamError(client.queryReminders({ next: hugeCursor.reminders }), refused);
  });

  it('refuses dates past the year 9999 and durations that end there', async () => {
    const { client, message, stored } = await seeded(env());
    const before = await stored();
    const target = uniqueId('muc-tieu');
    await createUsers(env(), [target]);

    await expectStreamError(
      client.partialUpdateMessage(message.id, {
        set: { pinned: true, pin_expires: '+020000-01-01T00:00:00.000Z' },
      } as never),
      { code: 4, status: 400 },
    );
    await expectStreamError(client.muteUser(target, undefined, { timeout: 1e300 }), {
      code: 4,
      status: 400,
    });
    expect(await stored()).toEqual(before);
  });

  it('refuses __proto__, constructor and prototype keys in bodies and payloads, polluting nothing', async () => {
    const { userId, channelId, stored } = await seeded(env());
    const before = await stored();
    const cases: RawRequest[] = [
      {
        method: 'POST',
        path: `/channels/messaging/${channelId}/message`,
        body: `{"message":{"id":"${randomUUID()}","text":"độc","__proto__":{"polluted":1}}}`,
      },
      {
        method: 'POST',
        path: `/channels/messaging/${channelId}`,
        body: '{"data":{"constructor":{"prototype":{"polluted":1}}}}',
      },
      {
        method: 'PATCH',
        path: '/users',
        body: `{"users":[{"id":"${userId}","set":{"prototype":"x"}}]}`,
      },
      {
        method: 'GET',
        path: '/users',
        query: { payload: '{"filter_conditions":{"id":"x"},"__proto__":{"polluted":1}}' },
      },
      {
        method: 'GET',
        path: '/users',
        query: { payload: '{"filter_conditions":{"__proto__":{"$eq":1}}}' },
      },
    ];
    for (const request of cases) await expectInputError(env(), { ...request, userId });

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await stored()).toEqual(before);
  });

  it('keeps serving the attacked channel afterwards', async () => {
    const { client, channel, channelId } = await seeded(env());
    await expectInputError(env(), {
      method: 'POST',
      path: '/channels',
      userId: client.userID,
      body: `{"filter_conditions":${nestedFilter(5000)}}`,
    });

    const after = await sendText(channel, 'Vẫn tu luyện');

    const { messages } = await env().admin.channel('messaging', channelId).query({});
    expect(messages.map((m) => m.id)).toContain(after.id);
  });
});
