import { randomBytes } from 'node:crypto';
import type { ChannelMemberUpdates, StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  expectStreamError,
  expectStreamErrorBody,
  newClient,
  rawRequest,
  sendText,
  uniqueId,
  useContractEnv,
  watchChannel,
} from '../contract/helpers.ts';

const apiKey = `key-${randomBytes(4).toString('hex')}`;
const apiSecret = `secret-${randomBytes(16).toString('hex')}`;

const NOT_ALLOWED = { code: 17, status: 403 };
const BAD_INPUT = { code: 4, status: 400 };

describe('roles, server-only fields and field limits', { timeout: 30_000 }, () => {
  const env = useContractEnv({
    config: {
      // Guests on: the guest path is one more write path that must hold the same rules.
      apps: [
        {
          key: apiKey,
          secret: apiSecret,
          serverOnlyUserFields: ['tu_vi'],
          guests: { enabled: true },
        },
      ],
    },
  });

  /** A group created from the client, as the web app does: the creator owns it, the server named one moderator. */
  async function group(prefix: string) {
    const ownerId = uniqueId(`${prefix}-chu`);
    const moderatorId = uniqueId(`${prefix}-lao`);
    const memberId = uniqueId(`${prefix}-de-tu`);
    const otherId = uniqueId(`${prefix}-su-de`);
    await createUsers(env(), [moderatorId, memberId, otherId]);
    const owner = await connectUser(env(), ownerId);
    const channelId = uniqueId(prefix);
    const asOwner = await watchChannel(owner, 'messaging', channelId, {
      name: 'Động phủ',
      members: [ownerId, moderatorId, memberId, otherId],
    });
    await env().admin.channel('messaging', channelId).addModerators([moderatorId]);
    return { ownerId, moderatorId, memberId, otherId, owner, asOwner, channelId };
  }

  /** Every member's channel role, read server-side. */
  async function roles(channelId: string): Promise<Record<string, string | undefined>> {
    const { members } = await env()
      .admin.channel('messaging', channelId)
      .queryMembers({}, {}, { limit: 100 });
    return Object.fromEntries(members.map((m) => [m.user_id ?? '', m.channel_role]));
  }

  async function staff(role: 'moderator' | 'admin'): Promise<StreamChat> {
    const id = uniqueId(role === 'admin' ? 'chuong-mon' : 'chap-phap');
    await createUsers(env(), [{ id, name: id, role }]);
    return connectUser(env(), id);
  }

  describe('#4 a plain member who makes themselves moderator and removes the owner', () => {
    it('a plain member cannot promote themselves, remove the owner or delete the owner’s messages', async () => {
      const g = await group('chiem');
      const word = await sendText(g.asOwner, 'Lời của chủ động phủ');
      const member = await connectUser(env(), g.memberId);
      const asMember = await watchChannel(member, 'messaging', g.channelId);

      await expectStreamError(asMember.addModerators([g.memberId]), NOT_ALLOWED);
      await expectStreamError(
        asMember.assignRoles([{ user_id: g.memberId, channel_role: 'channel_moderator' }]),
        NOT_ALLOWED,
      );
      await expectStreamError(asMember.removeMembers([g.ownerId]), NOT_ALLOWED);
      await expectStreamError(member.deleteMessage(word.id), NOT_ALLOWED);

      expect(await roles(g.channelId)).toMatchObject({
        [g.ownerId]: 'owner',
        [g.memberId]: 'channel_member',
      });
      expect((await g.owner.getMessage(word.id)).message.text).toBe('Lời của chủ động phủ');
    });

    it('a plain member cannot slip a role into addMembers, inviteMembers or a re-add of the owner', async () => {
      const g = await group('len');
      const member = await connectUser(env(), g.memberId);
      const asMember = await watchChannel(member, 'messaging', g.channelId);
      const newcomerId = uniqueId('tan-binh');
      await createUsers(env(), [newcomerId]);

      await expectStreamError(
        asMember.addMembers([{ user_id: newcomerId, channel_role: 'channel_moderator' }]),
        NOT_ALLOWED,
      );
      await expectStreamError(
        // The client's types forbid a role in an invite; an attacker sends it anyway.
        asMember.inviteMembers([
          { user_id: newcomerId, channel_role: 'owner' } as unknown as string,
        ]),
        NOT_ALLOWED,
      );
      await expectStreamError(
        asMember.addMembers([{ user_id: g.memberId, channel_role: 'owner' }]),
        NOT_ALLOWED,
      );
      // Adding people stays a member's right in a group, but re-adding the owner must not demote them.
      await asMember.addMembers([g.ownerId, g.moderatorId]);

      const after = await roles(g.channelId);
      expect(after).toMatchObject({
        [g.ownerId]: 'owner',
        [g.moderatorId]: 'channel_moderator',
        [g.memberId]: 'channel_member',
      });
      expect(after).not.toHaveProperty(newcomerId);
    });

    it('the owner may add a newcomer as channel moderator, as Stream’s docs show, but not promote a member, give the owner role, or let a moderator do it', async () => {
      const g = await group('bo-nhiem');
      const [newcomerId, secondId, thirdId] = [
        uniqueId('ho-phap'),
        uniqueId('ho-phap'),
        uniqueId('ho-phap'),
      ];
      await createUsers(env(), [newcomerId, secondId, thirdId]);

      await g.asOwner.addMembers([{ user_id: newcomerId, channel_role: 'channel_moderator' }]);
      // A re-add with a role leaves an existing member's role alone: promoting stays server-side.
      await g.asOwner.addMembers([{ user_id: g.memberId, channel_role: 'channel_moderator' }]);
      await expectStreamError(
        g.asOwner.addMembers([{ user_id: secondId, channel_role: 'owner' }]),
        NOT_ALLOWED,
      );
      const moderator = await connectUser(env(), g.moderatorId);
      const asModerator = await watchChannel(moderator, 'messaging', g.channelId);
      await expectStreamError(
        asModerator.addMembers([{ user_id: thirdId, channel_role: 'channel_moderator' }]),
        NOT_ALLOWED,
      );

      const after = await roles(g.channelId);
      expect(after).toMatchObject({
        [g.ownerId]: 'owner',
        [newcomerId]: 'channel_moderator',
        [g.memberId]: 'channel_member',
      });
      expect(after).not.toHaveProperty(secondId);
      expect(after).not.toHaveProperty(thirdId);
    });

    it.each([
      ['a channel moderator', 'moderator'],
      ['the owner', 'owner'],
      ['a global moderator', 'global-moderator'],
      ['an admin', 'admin'],
    ] as const)('%s cannot change channel roles from a client token', async (_who, as) => {
      const g = await group('phong');
      const client =
        as === 'owner'
          ? g.owner
          : as === 'moderator'
            ? await connectUser(env(), g.moderatorId)
            : await staff(as === 'admin' ? 'admin' : 'moderator');
      const channel = client.channel('messaging', g.channelId);

      await expectStreamError(channel.addModerators([g.memberId]), NOT_ALLOWED);
      await expectStreamError(channel.demoteModerators([g.moderatorId]), NOT_ALLOWED);
      await expectStreamError(
        channel.assignRoles([{ user_id: g.otherId, channel_role: 'channel_moderator' }]),
        NOT_ALLOWED,
      );
      await expectStreamError(
        channel.partialUpdateMember(g.memberId, { set: { channel_role: 'channel_moderator' } }),
        NOT_ALLOWED,
      );

      expect(await roles(g.channelId)).toMatchObject({
        [g.ownerId]: 'owner',
        [g.moderatorId]: 'channel_moderator',
        [g.memberId]: 'channel_member',
        [g.otherId]: 'channel_member',
      });
    });

    it('the server can still promote, demote and assign channel roles', async () => {
      const g = await group('phe');
      const channel = env().admin.channel('messaging', g.channelId);

      await channel.addModerators([g.memberId]);
      await channel.demoteModerators([g.moderatorId]);
      await channel.assignRoles([{ user_id: g.otherId, channel_role: 'channel_moderator' }]);

      expect(await roles(g.channelId)).toMatchObject({
        [g.memberId]: 'channel_moderator',
        [g.moderatorId]: 'channel_member',
        [g.otherId]: 'channel_moderator',
      });
    });

    it('a plain member cannot remove anyone but themselves', async () => {
      const g = await group('duoi');
      const member = await connectUser(env(), g.memberId);
      const asMember = await watchChannel(member, 'messaging', g.channelId);

      await expectStreamError(asMember.removeMembers([g.otherId]), NOT_ALLOWED);
      await expectStreamError(asMember.removeMembers([g.moderatorId]), NOT_ALLOWED);
      await expectStreamError(asMember.removeMembers([g.memberId, g.ownerId]), NOT_ALLOWED);

      expect(Object.keys(await roles(g.channelId))).toHaveLength(4);
      await asMember.removeMembers([g.memberId]);
      expect(await roles(g.channelId)).not.toHaveProperty(g.memberId);
    });

    it('a channel moderator can remove a plain member but not the owner or another moderator', async () => {
      const g = await group('truc');
      await env().admin.channel('messaging', g.channelId).addModerators([g.otherId]);
      const moderator = await connectUser(env(), g.moderatorId);
      const asModerator = moderator.channel('messaging', g.channelId);

      await expectStreamError(asModerator.removeMembers([g.ownerId]), NOT_ALLOWED);
      await expectStreamError(asModerator.removeMembers([g.otherId]), NOT_ALLOWED);
      await asModerator.removeMembers([g.memberId]);

      const after = await roles(g.channelId);
      expect(after).toMatchObject({ [g.ownerId]: 'owner', [g.otherId]: 'channel_moderator' });
      expect(after).not.toHaveProperty(g.memberId);
    });

    it('the owner can remove a moderator, and only staff can remove the owner', async () => {
      const g = await group('tong');
      await g.asOwner.removeMembers([g.moderatorId]);
      expect(await roles(g.channelId)).not.toHaveProperty(g.moderatorId);

      const globalModerator = await staff('moderator');
      await globalModerator.channel('messaging', g.channelId).removeMembers([g.ownerId]);
      expect(await roles(g.channelId)).not.toHaveProperty(g.ownerId);
    });

    it('a user cannot create a channel that hands out owner or moderator roles, or in someone else’s name', async () => {
      const userId = uniqueId('ke-tao');
      const friendId = uniqueId('ban');
      const victimId = uniqueId('nan-nhan');
      await createUsers(env(), [friendId, victimId]);
      const user = await connectUser(env(), userId);

      await expectStreamError(
        user
          .channel('messaging', uniqueId('nhom'), {
            members: [
              { user_id: userId },
              { user_id: friendId, channel_role: 'channel_moderator' },
            ] as unknown as string[],
          })
          .create(),
        NOT_ALLOWED,
      );
      await expectStreamError(
        user
          .channel('messaging', uniqueId('nhom'), {
            members: [{ user_id: victimId, channel_role: 'owner' }] as unknown as string[],
          })
          .create(),
        NOT_ALLOWED,
      );
      const spoofedId = uniqueId('gia-mao');
      await expectStreamError(
        user
          .channel('messaging', spoofedId, { members: [userId], created_by_id: victimId })
          .create(),
        NOT_ALLOWED,
      );
      expect(await env().admin.queryChannels({ cid: `messaging:${spoofedId}` })).toEqual([]);
    });

    it('a member cannot change someone else’s membership, nor their own role or ban', async () => {
      const g = await group('sua');
      const member = await connectUser(env(), g.memberId);
      const asMember = member.channel('messaging', g.channelId);

      await expectStreamError(
        asMember.partialUpdateMember(g.otherId, {
          set: { pinned: true, biet_danh: 'kẻ phản bội' },
        }),
        NOT_ALLOWED,
      );
      await expectStreamError(
        asMember.updateMemberPartial({ set: { channel_role: 'channel_moderator' } }),
        NOT_ALLOWED,
      );
      await expectStreamError(
        asMember.updateMemberPartial({ set: { banned: true } as ChannelMemberUpdates }),
        NOT_ALLOWED,
      );
      const moderator = await connectUser(env(), g.moderatorId);
      await expectStreamError(
        moderator
          .channel('messaging', g.channelId)
          .partialUpdateMember(g.ownerId, { set: { archived: true } }),
        NOT_ALLOWED,
      );

      const { members } = await env()
        .admin.channel('messaging', g.channelId)
        .queryMembers({ user_id: { $in: [g.otherId, g.ownerId, g.memberId] } });
      for (const m of members) {
        expect(m.pinned_at ?? null).toBeNull();
        expect(m.archived_at ?? null).toBeNull();
        expect(m).not.toHaveProperty('biet_danh');
      }
      expect(members.find((m) => m.user_id === g.memberId)?.channel_role).toBe('channel_member');
      // Their own preferences remain theirs to change.
      const own = await asMember.updateMemberPartial({ set: { pinned: true } });
      expect(own.channel_member.pinned_at).toEqual(expect.any(String));
    });

    it('a member cannot accept or reject an invite for someone else, nor one they never got', async () => {
      const g = await group('moi');
      const guestId = uniqueId('khach-moi');
      await createUsers(env(), [guestId]);
      await g.asOwner.inviteMembers([guestId]);
      const member = await connectUser(env(), g.memberId);
      const asMember = member.channel('messaging', g.channelId);

      await expectStreamError(asMember.acceptInvite({ user_id: guestId }), NOT_ALLOWED);
      await expectStreamError(asMember.rejectInvite({ user_id: guestId }), NOT_ALLOWED);
      await expectStreamError(asMember.acceptInvite(), BAD_INPUT);

      const { members } = await env()
        .admin.channel('messaging', g.channelId)
        .queryMembers({ user_id: guestId });
      expect(members[0]?.invited).toBe(true);
      expect(members[0]?.invite_accepted_at ?? null).toBeNull();
      expect(members[0]?.invite_rejected_at ?? null).toBeNull();
    });

    it('a member cannot add people to a one-to-one conversation', async () => {
      const aliceId = uniqueId('a');
      const bobId = uniqueId('b');
      const eveId = uniqueId('eve');
      await createUsers(env(), [bobId, eveId]);
      const alice = await connectUser(env(), aliceId);
      const direct = alice.channel('messaging', { members: [aliceId, bobId] });
      await direct.watch();

      await expectStreamError(direct.addMembers([eveId]), NOT_ALLOWED);
      await expectStreamError(direct.inviteMembers([eveId]), NOT_ALLOWED);
      const eve = await connectUser(env(), eveId);
      await expectStreamError(eve.channel('messaging', direct.id).watch(), NOT_ALLOWED);
    });
  });

  describe('#7 a user who sets their own tu_vi', () => {
    async function cultivator(tuVi: number) {
      const id = uniqueId('tu-si');
      await env().admin.upsertUsers([{ id, name: 'Tu sĩ', tu_vi: tuVi, teams: ['thanh-van'] }]);
      return { id, client: await connectUser(env(), id) };
    }

    async function stored(id: string) {
      const { users } = await env().admin.queryUsers({ id: { $eq: id } });
      return users[0];
    }

    it('a user cannot raise their tu_vi with upsertUser, nor erase it by upserting without it', async () => {
      const { id, client } = await cultivator(75);

      await expectStreamError(
        client.upsertUser({ id, name: 'Tu sĩ', tu_vi: 999_999_999 }),
        NOT_ALLOWED,
      );
      await client.upsertUser({ id, name: 'Tu sĩ đổi tên' });

      expect(await stored(id)).toMatchObject({ name: 'Tu sĩ đổi tên', tu_vi: 75 });
    });

    it('a user cannot set or unset their tu_vi with partialUpdateUser', async () => {
      const { id, client } = await cultivator(2300);

      await expectStreamError(
        client.partialUpdateUser({ id, set: { tu_vi: 42_000_000 } }),
        NOT_ALLOWED,
      );
      await expectStreamError(client.partialUpdateUser({ id, unset: ['tu_vi'] }), NOT_ALLOWED);

      expect((await stored(id))?.tu_vi).toBe(2300);
    });

    it('a user cannot change their own role, teams or ban', async () => {
      const { id, client } = await cultivator(1);
      await env().admin.partialUpdateUser({ id, set: { banned: true } });

      await expectStreamError(
        client.partialUpdateUser({ id, set: { role: 'admin' } }),
        NOT_ALLOWED,
      );
      await expectStreamError(client.upsertUser({ id, role: 'moderator' }), NOT_ALLOWED);
      await expectStreamError(
        client.partialUpdateUser({ id, set: { teams: ['ma-giao'] } }),
        NOT_ALLOWED,
      );
      await expectStreamError(client.partialUpdateUser({ id, unset: ['teams'] }), NOT_ALLOWED);
      await expectStreamError(
        client.partialUpdateUser({ id, set: { banned: false } }),
        NOT_ALLOWED,
      );

      expect(await stored(id)).toMatchObject({
        role: 'user',
        teams: ['thanh-van'],
        banned: true,
      });
    });

    it('an admin’s client token cannot set tu_vi or roles either: those belong to the product server', async () => {
      const { id } = await cultivator(10);
      const admin = await staff('admin');

      await expectStreamError(
        admin.partialUpdateUser({ id, set: { tu_vi: 10_000_000 } }),
        NOT_ALLOWED,
      );
      await expectStreamError(admin.partialUpdateUser({ id, set: { role: 'admin' } }), NOT_ALLOWED);

      expect(await stored(id)).toMatchObject({ tu_vi: 10, role: 'user' });
    });

    it('a user cannot put themselves in a team or pick a tu_vi when connecting or as a guest', async () => {
      const { id } = await cultivator(5);
      const again = await connectUser(env(), id, {
        user: { tu_vi: 10 ** 12, teams: ['ma-giao'] } as Record<string, unknown>,
      });
      expect(again.user).toMatchObject({ tu_vi: 5, teams: ['thanh-van'] });

      const guestId = uniqueId('khach');
      const guest = newClient(env());
      await guest.setGuestUser({ id: guestId, tu_vi: 10 ** 12, role: 'admin', teams: ['x'] });
      expect(await stored(guest.userID!)).toMatchObject({ role: 'guest', teams: [] });
      expect((await stored(guest.userID!))?.tu_vi).toBeUndefined();
    });

    it('the server-side client still sets and unsets tu_vi', async () => {
      const { id } = await cultivator(1);
      await env().admin.partialUpdateUser({ id, set: { tu_vi: 48_000 } });
      expect((await stored(id))?.tu_vi).toBe(48_000);
      await env().admin.partialUpdateUser({ id, unset: ['tu_vi'] });
      expect((await stored(id))?.tu_vi).toBeUndefined();
    });
  });

  describe('#9 a name or avatar that breaks the page', () => {
    const tooLong = 'Đ'.repeat(101);
    const hostileNames = [
      'Nul\u0000byte',
      'Hai\ndòng',
      'Lật\u202Engược',
      'Cô\u2066lập',
      '\u2069Đóng',
    ];
    const hostileImages = [
      'javascript:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      'vbscript:msgbox(1)',
      '//evil.example/a.png',
      'not a url',
      `https://a.example/${'x'.repeat(2100)}`,
    ];

    it('a user cannot take a name longer than 100 characters, on any write path', async () => {
      const id = uniqueId('ten-dai');
      const client = await connectUser(env(), id);

      await expectStreamError(client.partialUpdateUser({ id, set: { name: tooLong } }), BAD_INPUT);
      await expectStreamError(client.upsertUser({ id, name: tooLong }), BAD_INPUT);
      await expectStreamError(
        connectUser(env(), uniqueId('ten-dai'), { user: { name: tooLong } }),
        {
          code: 4,
        },
      );
      await expectStreamError(env().admin.upsertUser({ id, name: tooLong }), BAD_INPUT);

      const { users } = await env().admin.queryUsers({ id: { $eq: id } });
      expect(users[0]?.name).toBeUndefined();
    });

    it('a 100-character name is kept, trimmed of surrounding spaces', async () => {
      const id = uniqueId('ten-vua');
      const client = await connectUser(env(), id);
      const name = 'Lục Thanh Y '.repeat(9).slice(0, 100);
      const response = await client.partialUpdateUser({ id, set: { name: `  ${name}  ` } });
      expect(response.users[id]?.name).toBe(name.trim());
    });

    it.each(hostileNames.map((name) => [JSON.stringify(name), name]))(
      'a user cannot take the name %s',
      async (_label, name) => {
        const id = uniqueId('ten-xau');
        const client = await connectUser(env(), id, { user: { name: 'Tên cũ' } });

        await expectStreamError(client.partialUpdateUser({ id, set: { name } }), BAD_INPUT);
        await expectStreamError(client.upsertUser({ id, name }), BAD_INPUT);
        await expectStreamError(connectUser(env(), id, { user: { name } }), { code: 4 });

        const { users } = await env().admin.queryUsers({ id: { $eq: id } });
        expect(users[0]?.name).toBe('Tên cũ');
      },
    );

    it.each(hostileImages.map((image) => [image.slice(0, 40), image]))(
      'a user cannot take the avatar %s',
      async (_label, image) => {
        const id = uniqueId('anh-xau');
        const client = await connectUser(env(), id);

        await expectStreamError(client.partialUpdateUser({ id, set: { image } }), BAD_INPUT);
        await expectStreamError(client.upsertUser({ id, image }), BAD_INPUT);
        await expectStreamError(connectUser(env(), uniqueId('anh-xau'), { user: { image } }), {
          code: 4,
        });
        await expectStreamError(newClient(env()).setGuestUser({ id: uniqueId('khach'), image }), {
          code: 4,
        });

        const { users } = await env().admin.queryUsers({ id: { $eq: id } });
        expect(users[0]?.image).toBeUndefined();
      },
    );

    it('an https avatar is accepted', async () => {
      const id = uniqueId('anh-dep');
      const client = await connectUser(env(), id);
      const image = 'https://cdn.example/avatars/luc-thanh-y.png';
      const response = await client.partialUpdateUser({ id, set: { image } });
      expect(response.users[id]?.image).toBe(image);
    });

    it('a user cannot grow their custom data past 5 KiB one partial update at a time', async () => {
      const id = uniqueId('nhieu-chu');
      const client = await connectUser(env(), id);
      const chunk = 'x'.repeat(3000);

      await client.partialUpdateUser({ id, set: { tieu_su: chunk } });
      await expectStreamError(client.partialUpdateUser({ id, set: { ghi_chu: chunk } }), BAD_INPUT);

      const { users } = await env().admin.queryUsers({ id: { $eq: id } });
      expect(users[0]?.tieu_su).toBe(chunk);
      expect(users[0]).not.toHaveProperty('ghi_chu');
    });
  });

  describe('#10 a channel with an oversized name or hostile fields', () => {
    const tooLong = 'Tông'.repeat(26);

    async function ownGroup(prefix: string) {
      const ownerId = uniqueId(`${prefix}-chu`);
      const memberId = uniqueId(`${prefix}-de-tu`);
      await createUsers(env(), [memberId]);
      const owner = await connectUser(env(), ownerId);
      const channel = await watchChannel(owner, 'messaging', uniqueId(prefix), {
        name: 'Tên gốc',
        members: [ownerId, memberId],
      });
      return { ownerId, memberId, owner, channel };
    }

    async function storedChannel(id: string) {
      return (await env().admin.channel('messaging', id).query({ state: false })).channel;
    }

    it('a channel name longer than 100 characters is refused on create, update and partial update', async () => {
      const g = await ownGroup('ten');
      await expectStreamError(
        g.owner
          .channel('messaging', uniqueId('ten'), { name: tooLong, members: [g.ownerId] })
          .create(),
        BAD_INPUT,
      );
      await expectStreamError(g.channel.update({ name: tooLong }), BAD_INPUT);
      await expectStreamError(g.channel.updatePartial({ set: { name: tooLong } }), BAD_INPUT);
      await expectStreamError(
        g.channel.updatePartial({ set: { name: 'Phá\u202Egiới' } }),
        BAD_INPUT,
      );

      expect((await storedChannel(g.channel.id!)).name).toBe('Tên gốc');
    });

    it('a channel image must be an http(s) URL', async () => {
      const g = await ownGroup('anh');
      for (const image of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'ftp://x/y.png']) {
        await expectStreamError(g.channel.update({ name: 'Tên gốc', image }), BAD_INPUT);
        await expectStreamError(g.channel.updatePartial({ set: { image } }), BAD_INPUT);
      }
      expect((await storedChannel(g.channel.id!)).image).toBeUndefined();
      await g.channel.updatePartial({ set: { image: 'https://cdn.example/tong-mon.png' } });
      expect((await storedChannel(g.channel.id!)).image).toBe('https://cdn.example/tong-mon.png');
    });

    it('custom channel fields cannot grow past 5 KiB one partial update at a time', async () => {
      const g = await ownGroup('mo-ta');
      const chunk = 'm'.repeat(3000);

      await g.channel.updatePartial({ set: { description: chunk } });
      await expectStreamError(g.channel.updatePartial({ set: { rules: chunk } }), BAD_INPUT);

      const stored = await storedChannel(g.channel.id!);
      expect(stored.description).toBe(chunk);
      expect(stored).not.toHaveProperty('rules');
    });

    it('a request cannot carry more than 100 members', async () => {
      const g = await ownGroup('dong');
      const crowd = Array.from({ length: 101 }, (_, i) => `dong-nguoi-${i}`);

      await expectStreamError(g.channel.addMembers(crowd), BAD_INPUT);
      await expectStreamError(g.channel.removeMembers(crowd), BAD_INPUT);
      await expectStreamError(g.channel.inviteMembers(crowd), BAD_INPUT);
      await expectStreamError(
        g.owner.channel('messaging', uniqueId('dong'), { members: [g.ownerId, ...crowd] }).create(),
        BAD_INPUT,
      );
    });

    it('a plain member cannot freeze the group, set its slow mode, disable it or move it to a team', async () => {
      const g = await ownGroup('dong-bang');
      const member = await connectUser(env(), g.memberId);
      const asMember = await watchChannel(member, 'messaging', g.channel.id!);

      await expectStreamError(asMember.updatePartial({ set: { frozen: true } }), NOT_ALLOWED);
      await expectStreamError(asMember.update({ name: 'Tên gốc', frozen: true }), NOT_ALLOWED);
      await expectStreamError(asMember.enableSlowMode(120), NOT_ALLOWED);
      await expectStreamError(asMember.updatePartial({ set: { cooldown: 60 } }), NOT_ALLOWED);
      await expectStreamError(asMember.updatePartial({ set: { disabled: true } }), NOT_ALLOWED);
      await expectStreamError(asMember.updatePartial({ set: { team: 'ma-giao' } }), NOT_ALLOWED);
      // Renaming the group stays a member's right in messaging.
      await asMember.updatePartial({ set: { name: 'Tên mới' } });

      const stored = await storedChannel(g.channel.id!);
      expect(stored).toMatchObject({ name: 'Tên mới', frozen: false, disabled: false });
      expect(stored.cooldown ?? 0).toBe(0);
      expect(stored.team).toBeUndefined();
    });

    it('a cooldown outside 0–120 seconds is refused, in data as at the top level', async () => {
      const g = await ownGroup('cham');
      await expectStreamError(g.channel.update({ name: 'Tên gốc', cooldown: 10 ** 9 }), BAD_INPUT);
      await expectStreamError(g.channel.updatePartial({ set: { cooldown: -1 } }), BAD_INPUT);
      await expectStreamError(g.channel.enableSlowMode(121), BAD_INPUT);
      expect((await storedChannel(g.channel.id!)).cooldown ?? 0).toBe(0);
    });

    it('bad channel data gets Stream’s error JSON, never a 500', async () => {
      const g = await ownGroup('tho');
      const response = await rawRequest(env(), {
        method: 'POST',
        path: `/channels/messaging/${g.channel.id!}`,
        userId: g.ownerId,
        body: { data: { name: { toString: 'x' } }, add_members: 'not-a-list' },
      });
      expectStreamErrorBody(response, 4, 400);
    });

    it('a user can still create their own livestream channel, as Stream’s default grants allow', async () => {
      const id = uniqueId('phat-song');
      const user = await connectUser(env(), id);
      const channel = user.channel('livestream', uniqueId('dai'), { name: 'Luận đạo' });
      await channel.create();
      expect(channel.data?.created_by?.id).toBe(id);
    });
  });
});
