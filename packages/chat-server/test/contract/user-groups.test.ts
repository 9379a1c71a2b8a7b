import type { Event, EventTypes, StreamChat, UserGroupResponse } from 'stream-chat';
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
  waitForEvent,
  type ContractEnv,
} from './helpers.ts';

/** Users that exist server-side, with unique ids. */
async function someUsers(env: ContractEnv, prefix: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => uniqueId(`${prefix}${i}`));
  await createUsers(env, ids);
  return ids;
}

const memberIds = (group: UserGroupResponse) => (group.members ?? []).map((m) => m.user_id).sort();

describe('user groups', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('creates, reads, updates, changes the members of and deletes a group server-side with Stream’s shapes', async () => {
    const admin = env().admin;
    const [a, b, c] = await someUsers(env(), 'dan-tu', 3);
    const id = uniqueId('truong-lao-doan');
    const created = await admin.createUserGroup({
      id,
      name: 'Trưởng lão đoàn',
      description: 'Các trưởng lão của tông môn',
      member_ids: [a!, b!, a!],
    });
    expect(created.user_group).toMatchObject({
      id,
      name: 'Trưởng lão đoàn',
      description: 'Các trưởng lão của tông môn',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(memberIds(created.user_group)).toEqual([a, b].sort());
    expect(created.user_group.members?.[0]).toEqual({
      group_id: id,
      user_id: expect.any(String),
      is_admin: false,
      created_at: expect.any(String),
    });

    const updated = await admin.updateUserGroup(id, { name: 'Hộ pháp đoàn', description: '' });
    expect(updated.user_group.name).toBe('Hộ pháp đoàn');
    expect(updated.user_group.description).toBeUndefined();

    const added = await admin.addUserGroupMembers(id, { member_ids: [c!], as_admin: true });
    expect(added.user_group.members?.find((m) => m.user_id === c)?.is_admin).toBe(true);
    const removed = await admin.removeUserGroupMembers(id, { member_ids: [a!] });
    expect(memberIds(removed.user_group)).toEqual([b, c].sort());

    const read = await admin.getUserGroup(id);
    expect(read.user_group).toMatchObject({ id, name: 'Hộ pháp đoàn' });
    expect(memberIds(read.user_group)).toEqual([b, c].sort());

    await admin.deleteUserGroup(id);
    await expectStreamError(admin.getUserGroup(id), { code: 16, status: 404 });
  });

  it('generates an id when none is given', async () => {
    const { user_group } = await env().admin.createUserGroup({ name: 'Ngoại môn' });
    expect(user_group.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user_group.members ?? []).toEqual([]);
  });

  it('pages through groups in creation order with id_gt and created_at_gt', async () => {
    const admin = env().admin;
    // Groups made by earlier tests come before this instant; the three below come after it, in order.
    const since = new Date(Date.now() - 1).toISOString();
    const made: UserGroupResponse[] = [];
    for (const name of ['Một', 'Hai', 'Ba'])
      made.push((await admin.createUserGroup({ name })).user_group);
    const first = await admin.queryUserGroups({ limit: 2, created_at_gt: since });
    expect(first.user_groups.map((g) => g.id)).toEqual([made[0]!.id, made[1]!.id]);
    const last = nth(first.user_groups, 1);
    const second = await admin.queryUserGroups({
      limit: 2,
      created_at_gt: last.created_at,
      id_gt: last.id,
    });
    expect(second.user_groups.map((g) => g.id)).toEqual([made[2]!.id]);
  });

  it('refuses team_id on every call, as Stream does without multi-tenancy', async () => {
    const admin = env().admin;
    const { user_group: group } = await admin.createUserGroup({ name: 'Không đội' });
    const refused = { code: 4, message: /team_id is not supported/ };
    await expectStreamError(admin.createUserGroup({ name: 'Có đội', team_id: 'doi' }), refused);
    await expectStreamError(admin.queryUserGroups({ limit: 1, team_id: 'doi' }), refused);
    await expectStreamError(admin.searchUserGroups({ query: 'k', team_id: 'doi' }), refused);
    await expectStreamError(admin.getUserGroup(group.id, { team_id: 'doi' }), refused);
    await expectStreamError(admin.updateUserGroup(group.id, { team_id: 'doi' }), refused);
    await expectStreamError(admin.deleteUserGroup(group.id, { team_id: 'doi' }), refused);
    expect((await admin.getUserGroup(group.id)).user_group.team_id).toBeUndefined();
  });

  it('searches groups by name prefix, case-insensitively, and pages with name_gt and id_gt', async () => {
    const admin = env().admin;
    const prefix = uniqueId('kiem');
    const names = [`${prefix} Bắc`, `${prefix.toUpperCase()} Nam`, `${prefix} Tây`];
    for (const name of names) await admin.createUserGroup({ name });
    await admin.createUserGroup({ name: `khac ${prefix}` });
    const user = await connectUser(env(), uniqueId('tim'));

    const all = await user.searchUserGroups({ query: prefix.toUpperCase() });
    expect(all.user_groups.map((g) => g.name)).toEqual(names);
    expect(all.user_groups[0]).not.toHaveProperty('members');

    const page = await user.searchUserGroups({ query: prefix, limit: 2 });
    expect(page.user_groups).toHaveLength(2);
    const last = nth(page.user_groups, 1);
    const rest = await user.searchUserGroups({
      query: prefix,
      limit: 2,
      name_gt: last.name,
      id_gt: last.id,
    });
    expect(rest.user_groups.map((g) => g.name)).toEqual([names[2]]);
    // LIKE wildcards in the query are plain characters.
    expect((await user.searchUserGroups({ query: '%' })).user_groups).toEqual([]);
  });

  it('lets a user read any group but change only the groups they created or administer, as Stream’s docs do client-side', async () => {
    const admin = env().admin;
    const [member, helper] = await someUsers(env(), 'de-tu', 2);
    const id = uniqueId('noi-mon');
    await admin.createUserGroup({ id, name: 'Nội môn', member_ids: [member!] });
    const user = await connectUser(env(), uniqueId('tan-tu'));

    expect((await user.getUserGroup(id)).user_group.id).toBe(id);
    expect((await user.queryUserGroups({ limit: 100 })).user_groups.map((g) => g.id)).toContain(id);
    const refused = { code: 17, status: 403 };
    await expectStreamError(user.updateUserGroup(id, { name: 'Đổi tên' }), refused);
    await expectStreamError(user.addUserGroupMembers(id, { member_ids: [user.userID!] }), refused);
    await expectStreamError(user.removeUserGroupMembers(id, { member_ids: [member!] }), refused);
    await expectStreamError(user.deleteUserGroup(id), refused);
    const after = await admin.getUserGroup(id);
    expect(after.user_group.name).toBe('Nội môn');
    expect(memberIds(after.user_group)).toEqual([member]);

    // Their own group: created from the client, named after them, theirs to run and to hand an admin.
    const { user_group: own } = await user.createUserGroup({
      name: 'Của ta',
      description: 'Nhóm tự lập',
      member_ids: [member!],
    });
    expect(own).toMatchObject({ name: 'Của ta', created_by: user.userID });
    await user.updateUserGroup(own.id, { name: 'Của ta, đổi tên' });
    await user.addUserGroupMembers(own.id, { member_ids: [helper!], as_admin: true });
    const helperClient = await connectUser(env(), helper!);
    await helperClient.removeUserGroupMembers(own.id, { member_ids: [member!] });
    const memberClient = await connectUser(env(), member!);
    await expectStreamError(memberClient.deleteUserGroup(own.id), refused);
    expect(memberIds((await admin.getUserGroup(own.id)).user_group)).toEqual([helper]);
    await helperClient.deleteUserGroup(own.id);
    await expectStreamError(admin.getUserGroup(own.id), { code: 16 });
  });

  // Guests are refused too: the authorization matrix asks a guest (with guests on) for every user-group route.
  it('refuses the 21st group of one user', async () => {
    const user = await connectUser(env(), uniqueId('lap-nhom'));
    for (let i = 0; i < 20; i += 1) await user.createUserGroup({ name: `Nhóm ${i}` });
    await expectStreamError(user.createUserGroup({ name: 'Quá nhiều' }), {
      code: 4,
      message: /at most 20/,
    });
  });

  it('refuses anonymous callers with code 17', async () => {
    const response = await rawRequest(env(), { method: 'GET', path: '/usergroups', token: null });
    expectStreamErrorBody(response, 17, 403);
  });

  it('answers unknown ids with 16 and a duplicate id with 4, changing nothing', async () => {
    const admin = env().admin;
    const id = uniqueId('ngoai-mon');
    await admin.createUserGroup({ id, name: 'Ngoại môn' });
    await expectStreamError(admin.createUserGroup({ id, name: 'Khác' }), {
      code: 4,
      message: /already exists/,
    });
    expect((await admin.getUserGroup(id)).user_group.name).toBe('Ngoại môn');
    const missing = uniqueId('khong-co');
    for (const call of [
      () => admin.getUserGroup(missing),
      () => admin.updateUserGroup(missing, { name: 'x' }),
      () => admin.deleteUserGroup(missing),
      () => admin.addUserGroupMembers(missing, { member_ids: ['x'] }),
      () => admin.removeUserGroupMembers(missing, { member_ids: ['x'] }),
    ])
      await expectStreamError(call(), { code: 16, status: 404 });
  });

  it('refuses bad values with code 4 naming the field, changing nothing', async () => {
    const admin = env().admin;
    const id = uniqueId('bat-bien');
    const [member] = await someUsers(env(), 'bat-bien-dt', 1);
    await admin.createUserGroup({ id, name: 'Bất biến', member_ids: [member!] });
    const tooMany = Array.from({ length: 101 }, (_, i) => `u${i}`);
    // Thunks: each call starts only when awaited, so no refusal goes unhandled meanwhile.
    const cases: [() => Promise<unknown>, RegExp][] = [
      [() => admin.createUserGroup({ name: '  ' }), /name/],
      [() => admin.createUserGroup({ name: 'x'.repeat(256) }), /name/],
      [() => admin.createUserGroup({ name: 'x', id: 'có dấu cách' }), /id/],
      [() => admin.createUserGroup({ name: 'x', description: 'x'.repeat(1025) }), /description/],
      [() => admin.createUserGroup({ name: 'x', member_ids: tooMany }), /member_ids/],
      [() => admin.createUserGroup({ name: 'x', member_ids: [uniqueId('ma')] }), /member_ids/],
      [() => admin.updateUserGroup(id, { name: '' }), /name/],
      [() => admin.addUserGroupMembers(id, { member_ids: [] }), /member_ids/],
      [() => admin.addUserGroupMembers(id, { member_ids: [uniqueId('ma')] }), /member_ids/],
      [() => admin.queryUserGroups({ limit: 0 }), /limit/],
      [() => admin.searchUserGroups({ query: ' ' }), /query/],
    ];
    for (const [call, field] of cases) await expectStreamError(call(), { code: 4, message: field });
    const server = await serverRequest(env(), `/usergroups/${id}/members`, {
      member_ids: 'not-a-list',
    });
    expectStreamErrorBody(server, 4, 400);
    expect((server.body as { message: string }).message).toMatch(/member_ids/);

    const after = await admin.getUserGroup(id);
    expect(after.user_group.name).toBe('Bất biến');
    expect(memberIds(after.user_group)).toEqual([member]);
  });
});

/** A raw POST signed as the server (the client would refuse to send the malformed body). */
function serverRequest(env: ContractEnv, path: string, body: object) {
  return rawRequest(env, {
    method: 'POST',
    path,
    token: serverToken(env),
    headers: { 'stream-auth-type': 'jwt' },
    body,
  });
}

function serverToken(env: ContractEnv): string {
  return signJwt({ server: true }, env.server.apiSecret);
}

const NEW_NOTIFICATION = 'daohuu.notification.new' as EventTypes;
type Pushed = Event & { notification: { kind: string; message_id: string | null } };

function notifications(client: StreamChat) {
  return client.get<{ notifications: { kind: string; message_id: string | null }[] }>(
    `${client.baseURL}/daohuu/notifications`,
  );
}

describe('mentioning a user group', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('carries mentioned_group_ids and mentioned_groups, and notifies the group’s members who are channel members', async () => {
    const { members } = await channelWithMembers(env(), 'nghi-su', {
      users: ['chuong-mon', 'truong-lao'],
    });
    const [author, elder] = [nth(members, 0), nth(members, 1)];
    const outsiderId = uniqueId('nguoi-ngoai');
    const outsider = await connectUser(env(), outsiderId);
    const groupId = uniqueId('truong-lao-doan');
    await env().admin.createUserGroup({
      id: groupId,
      name: 'Trưởng lão đoàn',
      member_ids: [elder.id, outsiderId, author.id],
    });

    const told = waitForEvent(
      elder.client,
      NEW_NOTIFICATION,
      (e) => (e as Pushed).notification.kind === 'mention',
    );
    const sent = await sendText(author.channel, '@Trưởng lão đoàn họp gấp', {
      mentioned_group_ids: [groupId, uniqueId('da-giai-tan')],
    });
    expect(sent.mentioned_group_ids).toEqual([groupId]);
    expect(sent.mentioned_groups).toEqual([
      {
        id: groupId,
        name: 'Trưởng lão đoàn',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    const pushed = (await told) as Pushed;
    expect(pushed.notification.message_id).toBe(sent.id);

    // Read back, the message still says whom it mentioned.
    const { message } = await env().admin.getMessage(sent.id);
    expect(message.mentioned_group_ids).toEqual([groupId]);
    expect(message.mentioned_groups?.map((g) => g.name)).toEqual(['Trưởng lão đoàn']);
    // Not a member of the channel: not told. The author is never told of their own message.
    expect((await notifications(outsider)).notifications).toEqual([]);
    expect(
      (await notifications(author.client)).notifications.filter((n) => n.message_id === sent.id),
    ).toEqual([]);
  });

  it('refuses mentioned_group_ids that is not a list of ids, or names more than 25, with code 4, storing nothing', async () => {
    const { members } = await channelWithMembers(env(), 'sai-nhac', { users: ['nguoi-goi'] });
    const sender = nth(members, 0);
    const id = uniqueId('tin');
    await expectStreamError(
      sender.channel.sendMessage({
        id,
        text: 'sai',
        mentioned_group_ids: 'nhom' as unknown as string[],
      }),
      { code: 4, message: /mentioned_group_ids/ },
    );
    await expectStreamError(env().admin.getMessage(id), { code: 16 });
    // Stream's message docs: at most 10 groups.
    const tooMany = Array.from({ length: 11 }, (_, i) => `nhom-${i}`);
    await expectStreamError(
      sender.channel.sendMessage({ id, text: 'quá nhiều', mentioned_group_ids: tooMany }),
      { code: 4, message: /mentioned_group_ids/ },
    );
    await expectStreamError(env().admin.getMessage(id), { code: 16 });
  });
});
