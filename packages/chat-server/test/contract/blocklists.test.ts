import { describe, expect, it } from 'vitest';
import {
  channelWithMembers,
  connectUser,
  createUsers,
  expectStreamError,
  expectStreamErrorBody,
  nth,
  rawRequest,
  sendText,
  signJwt,
  uniqueId,
  useContractEnv,
  type ContractEnv,
} from './helpers.ts';

/*
 * Each test attaches its list to a channel type of its own through the server-side client's `updateChannelType`, as
 * an app does on Stream, so tests never see each other's lists.
 */
async function attach(
  env: ContractEnv,
  type: string,
  name: string,
  behavior: 'flag' | 'block',
): Promise<void> {
  await env.admin.updateChannelType(type, { blocklist: name, blocklist_behavior: behavior });
}

async function newType(env: ContractEnv): Promise<string> {
  const type = uniqueId('cho');
  await env.admin.createChannelType({ name: type });
  return type;
}

async function moderatorClient(env: ContractEnv) {
  const id = uniqueId('ho-phap');
  await createUsers(env, [{ id, name: id, role: 'moderator' }]);
  return connectUser(env, id);
}

async function marketChannel(env: ContractEnv, type: string) {
  const { members } = await channelWithMembers(env, 'cho-phien', {
    type,
    users: ['nguoi-ban', 'nguoi-mua'],
  });
  return { seller: nth(members, 0), buyer: nth(members, 1) };
}

describe('block lists', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('creates, lists, reads, updates and deletes a list server-side with Stream’s shapes', async () => {
    const name = uniqueId('tu-cam');
    const admin = env().admin;
    await admin.createBlockList({ name, words: ['ĐM', ' vãi ', 'đm'] });
    const { blocklist } = await admin.getBlockList(name);
    expect(blocklist).toMatchObject({ name, type: 'word', words: ['đm', 'vãi'] });
    expect(blocklist.created_at).toEqual(expect.any(String));
    expect((await admin.listBlockLists()).blocklists.map((list) => list.name)).toContain(name);

    await admin.updateBlockList(name, { words: ['lừa đảo'] });
    expect((await admin.getBlockList(name)).blocklist.words).toEqual(['lừa đảo']);
    await admin.deleteBlockList(name);
    await expectStreamError(admin.getBlockList(name), { code: 16, status: 404 });
    await expectStreamError(admin.deleteBlockList(name), { code: 16, status: 404 });
    await expectStreamError(admin.updateBlockList(name, { words: [] }), { code: 16, status: 404 });
  });

  it('refuses every block list route to user tokens, moderators included, with code 17', async () => {
    const name = uniqueId('tu-cam');
    await env().admin.createBlockList({ name, words: ['đm'] });
    const moderator = await moderatorClient(env());
    await expectStreamError(moderator.createBlockList({ name: uniqueId('x'), words: [] }), {
      code: 17,
      status: 403,
    });
    await expectStreamError(moderator.listBlockLists(), { code: 17, status: 403 });
    await expectStreamError(moderator.getBlockList(name), { code: 17, status: 403 });
    await expectStreamError(moderator.updateBlockList(name, { words: [] }), {
      code: 17,
      status: 403,
    });
    await expectStreamError(moderator.deleteBlockList(name), { code: 17, status: 403 });
    expect((await env().admin.getBlockList(name)).blocklist.words).toEqual(['đm']);
  });

  it('refuses a duplicate name, over-long words, too many words, bad names and non-string words with code 4', async () => {
    const admin = env().admin;
    const name = uniqueId('tu-cam');
    await admin.createBlockList({ name, words: ['đm'] });
    await expectStreamError(admin.createBlockList({ name, words: ['khác'] }), {
      code: 4,
      status: 400,
      message: /already exists/,
    });
    expect((await admin.getBlockList(name)).blocklist.words).toEqual(['đm']);
    await expectStreamError(
      admin.createBlockList({ name: uniqueId('dai'), words: ['a'.repeat(41)] }),
      {
        code: 4,
        message: /words\[0\]/,
      },
    );
    // The server's JSON limit (1,000 items per array) caps a list below Stream's 10,000 words.
    const tooMany = Array.from({ length: 1001 }, (_, index) => `w${index}`);
    await expectStreamError(admin.createBlockList({ name: uniqueId('nhieu'), words: tooMany }), {
      code: 4,
      message: /1000/,
    });
    const full = Array.from({ length: 1000 }, (_, index) => `w${index}`);
    await admin.updateBlockList(name, { words: full });
    expect((await admin.getBlockList(name)).blocklist.words).toHaveLength(1000);
    await expectStreamError(admin.updateBlockList(name, { words: ['...'] }), { code: 4 });
    await expectStreamError(admin.createBlockList({ name: 'tên có dấu', words: [] }), {
      code: 4,
      message: /name/,
    });
    const response = await rawRequest(env(), {
      method: 'POST',
      path: '/blocklists',
      token: signJwt({ server: true }, env().server.apiSecret),
      body: { name: uniqueId('so'), words: [42] },
    });
    expectStreamErrorBody(response, 4, 400);
    expect(response.body).toMatchObject({ message: expect.stringMatching(/words\[0\]/) });
  });

  it('ships no list: messages pass until a list is attached and filled', async () => {
    const type = await newType(env());
    const { seller } = await marketChannel(env(), type);
    expect(
      (await env().admin.listBlockLists()).blocklists.every((list) => list.name !== 'default'),
    ).toBe(true);
    const name = uniqueId('trong');
    await attach(env(), type, name, 'block');
    // Attached but not created yet: nothing to match against.
    await sendText(seller.channel, 'đm');
    await env().admin.createBlockList({ name, words: [] });
    await sendText(seller.channel, 'đm');
    await env().admin.updateBlockList(name, { words: ['đm'] });
    await expectStreamError(sendText(seller.channel, 'đm'), { code: 4, status: 400 });
  });

  it('blocks a message with a listed word, spelt with accents, capitals, đ/d or dots, and stores nothing', async () => {
    const type = await newType(env());
    const name = uniqueId('tu-cam');
    await env().admin.createBlockList({ name, words: ['đm', 'lừa đảo'] });
    await attach(env(), type, name, 'block');
    const { seller, buyer } = await marketChannel(env(), type);
    for (const text of ['ĐM', 'dm nhé', 'd.m', 'Đ M', 'LUA DAO đấy']) {
      await expectStreamError(sendText(seller.channel, text), {
        code: 4,
        status: 400,
        message: /blocked by moderation policies/,
      });
    }
    await sendText(seller.channel, 'Đạm bạc mà dam mê');
    const state = await buyer.channel.query({ messages: { limit: 10 } });
    expect(state.messages.map((message) => message.text)).toEqual(['Đạm bạc mà dam mê']);
  });

  it('flags instead when the behaviour is flag: the message is stored and queued as flagged by automod', async () => {
    const type = await newType(env());
    const name = uniqueId('tu-cam');
    await env().admin.createBlockList({ name, words: ['lừa đảo'] });
    await attach(env(), type, name, 'flag');
    const { seller } = await marketChannel(env(), type);
    const moderator = await moderatorClient(env());

    const message = await sendText(seller.channel, 'Shop này LỪA ĐẢO');
    expect(message.text).toBe('Shop này LỪA ĐẢO');
    const { items } = await moderator.moderation.queryReviewQueue({ entity_id: message.id });
    expect(items).toMatchObject([
      {
        entity_type: 'stream:chat:v1:message',
        entity_creator_id: seller.id,
        status: 'pending',
        flags: [{ created_by_automod: true, user: { id: seller.id } }],
      },
    ]);
    const { flags } = await moderator.queryMessageFlags({ channel_cid: seller.channel.cid });
    expect(flags).toMatchObject([{ message: { id: message.id }, created_by_automod: true }]);
  });

  it('checks an edit that changes the text like a send: a blocked edit keeps the old text, a flagged one queues it', async () => {
    const type = await newType(env());
    const name = uniqueId('tu-cam');
    await env().admin.createBlockList({ name, words: ['đm'] });
    await attach(env(), type, name, 'block');
    const { seller } = await marketChannel(env(), type);
    const moderator = await moderatorClient(env());
    const message = await sendText(seller.channel, 'Hàng tốt');

    await expectStreamError(
      seller.client.updateMessage({ id: message.id, text: 'Hàng tốt, Đ.M' }),
      { code: 4, status: 400, message: /blocked by moderation policies/ },
    );
    await expectStreamError(
      seller.client.partialUpdateMessage(message.id, { set: { text: 'ĐM' } }),
      { code: 4, status: 400 },
    );
    expect((await env().admin.getMessage(message.id)).message.text).toBe('Hàng tốt');
    // Edits that leave the text alone are not checked again.
    await seller.client.partialUpdateMessage(message.id, { set: { attachments: [] } });

    await attach(env(), type, name, 'flag');
    await seller.client.updateMessage({ id: message.id, text: 'dm' });
    const { items } = await moderator.moderation.queryReviewQueue({ entity_id: message.id });
    expect(items).toMatchObject([{ flags: [{ created_by_automod: true }], status: 'pending' }]);
  });

  it('lets server-side sends through, as Stream skips moderation for them', async () => {
    const type = await newType(env());
    const name = uniqueId('tu-cam');
    await env().admin.createBlockList({ name, words: ['đm'] });
    await attach(env(), type, name, 'block');
    const { seller } = await marketChannel(env(), type);
    const channel = env().admin.channel(type, seller.channel.id!);
    const { message } = await channel.sendMessage({ text: 'đm', user_id: seller.id });
    expect(message.text).toBe('đm');
  });

  it('stores the list and its behaviour on the channel type, returns them on GET, and detaches with an empty name', async () => {
    const type = await newType(env());
    const name = uniqueId('tu-cam');
    await env().admin.createBlockList({ name, words: ['đm'] });
    await attach(env(), type, name, 'flag');
    expect(await env().admin.getChannelType(type)).toMatchObject({
      blocklist: name,
      blocklist_behavior: 'flag',
    });
    const { seller } = await marketChannel(env(), type);
    await env().admin.updateChannelType(type, { blocklist: '', blocklist_behavior: 'block' });
    expect((await sendText(seller.channel, 'đm')).text).toBe('đm');
  });

  it('refuses an unknown behaviour, a non-string or a malformed list name with code 4 naming the field, and keeps the type', async () => {
    const type = await newType(env());
    const name = uniqueId('tu-cam');
    await env().admin.createBlockList({ name, words: ['đm'] });
    await attach(env(), type, name, 'block');
    const token = signJwt({ server: true }, env().server.apiSecret);
    const badBehavior = await rawRequest(env(), {
      method: 'PUT',
      path: `/channeltypes/${type}`,
      token,
      body: { blocklist_behavior: 'shadow_block' },
    });
    expectStreamErrorBody(badBehavior, 4, 400);
    expect(badBehavior.body).toMatchObject({
      message: expect.stringMatching(/blocklist_behavior/),
    });
    const badName = await rawRequest(env(), {
      method: 'PUT',
      path: `/channeltypes/${type}`,
      token,
      body: { blocklist: 42 },
    });
    expectStreamErrorBody(badName, 4, 400);
    expect(badName.body).toMatchObject({ message: expect.stringMatching(/blocklist/) });
    await expectStreamError(env().admin.updateChannelType(type, { blocklist: 'tên có dấu' }), {
      code: 4,
      status: 400,
      message: /blocklist/,
    });
    expect(await env().admin.getChannelType(type)).toMatchObject({
      blocklist: name,
      blocklist_behavior: 'block',
    });
  });

  it('refuses a user token, even a moderator’s, attaching a list to a channel type with code 17', async () => {
    const type = await newType(env());
    const moderator = await moderatorClient(env());
    await expectStreamError(
      moderator.updateChannelType(type, { blocklist: uniqueId('x'), blocklist_behavior: 'block' }),
      { code: 17, status: 403 },
    );
    expect((await env().admin.getChannelType(type)).blocklist ?? '').toBe('');
  });

  it('queues a listed word from a shadow-banned author, marked shadowed for the moderator', async () => {
    const type = await newType(env());
    const name = uniqueId('tu-cam');
    await env().admin.createBlockList({ name, words: ['lừa đảo'] });
    await attach(env(), type, name, 'flag');
    const { seller, buyer } = await marketChannel(env(), type);
    const moderator = await moderatorClient(env());
    await env().admin.shadowBan(seller.id);

    const message = await sendText(seller.channel, 'Lừa đảo đấy');
    const state = await buyer.channel.query({ messages: { limit: 10 } });
    expect(state.messages.map((shown) => shown.id)).not.toContain(message.id);
    const { items } = await moderator.moderation.queryReviewQueue({
      entity_creator_id: seller.id,
      reviewed: false,
    });
    expect(items).toMatchObject([
      {
        entity_id: message.id,
        flags: [{ created_by_automod: true }],
        message: { id: message.id, text: 'Lừa đảo đấy', shadowed: true, user: { id: seller.id } },
      },
    ]);
  });
});
