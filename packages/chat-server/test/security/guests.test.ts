import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  expectStreamError,
  expectStreamErrorBody,
  newClient,
  rawRequest,
  sendText,
  uniqueId,
  useContractEnv,
  waitUntilTime,
  watchChannel,
  type ContractEnv,
} from '../contract/helpers.ts';

const TOKEN_TTL_SECONDS = 3;

/** An app of its own with guests switched on, as an operator would configure it. */
function guestApp(guests: Record<string, unknown>) {
  return {
    key: `khach-${randomBytes(4).toString('hex')}`,
    secret: randomBytes(16).toString('hex'),
    guests: { enabled: true, ...guests },
  };
}

/** The claims of the token the client holds. */
function claimsOf(client: StreamChat): Record<string, unknown> {
  const token = client.tokenManager.getToken();
  if (!token) throw new Error('the client holds no token');
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** A visitor who becomes a guest through the real client's setGuestUser (POST /guest, then connect). */
async function becomeGuest(env: ContractEnv, wantedId: string): Promise<StreamChat> {
  const client = newClient(env);
  await client.setGuestUser({ id: wantedId, name: 'Khách vãng lai' });
  return client;
}

describe('#6 guests', { timeout: 30_000 }, () => {
  describe('with guests off (the default)', () => {
    const env = useContractEnv();

    it('a visitor cannot mint a guest token: POST /guest answers code 17 / 403', async () => {
      await expectStreamError(newClient(env()).setGuestUser({ id: uniqueId('khach') }), {
        code: 17,
        status: 403,
        message: /guest/i,
      });
    });

    it('a guest account cannot be used while guests are off, whatever its token', async () => {
      const id = uniqueId('khach-cu');
      await createUsers(env(), [{ id, role: 'guest' }]);
      const token = env().admin.createToken(id);

      await expectStreamError(newClient(env()).connectUser({ id }, token), { code: 17 });
      const rest = await rawRequest(env(), {
        method: 'GET',
        path: '/users',
        userId: id,
        token,
        query: { payload: JSON.stringify({ filter_conditions: { id } }) },
      });
      expectStreamErrorBody(rest, 17, 403);
    });
  });

  describe('with guests on', () => {
    const env = useContractEnv({
      config: { apps: [guestApp({ tokenTtlSeconds: 3600 })] as never },
    });

    it('a guest token expires: it carries exp within the configured lifetime', async () => {
      const guest = await becomeGuest(env(), uniqueId('khach'));

      const { exp } = claimsOf(guest);
      const now = Date.now() / 1000;
      expect(exp).toEqual(expect.any(Number));
      expect(exp as number).toBeGreaterThan(now);
      expect(exp as number).toBeLessThanOrEqual(Math.ceil(now) + 3600);
      expect(guest.user).toMatchObject({ role: 'guest' });
    });

    it("a visitor cannot re-claim another guest's id, nor a registered user's", async () => {
      const wanted = uniqueId('khach-dau');
      const first = await becomeGuest(env(), wanted);
      expect(first.userID).toMatch(new RegExp(`^guest-[0-9a-f-]{36}-${wanted}$`));
      const registered = uniqueId('de-tu');
      await createUsers(env(), [registered]);

      const thief = await becomeGuest(env(), wanted);
      const impostor = await becomeGuest(env(), registered);

      expect(thief.userID).not.toBe(first.userID);
      expect(thief.userID).not.toBe(wanted);
      expect(impostor.userID).not.toBe(registered);
      expect(thief.user).toMatchObject({ role: 'guest' });
    });

    it('a visitor cannot pick its own role when it becomes a guest', async () => {
      const client = newClient(env());
      await client.setGuestUser({ id: uniqueId('khach-gia'), role: 'admin' } as never);

      expect(client.user).toMatchObject({ role: 'guest' });
    });

    it('a guest cannot open a direct conversation with a registered user', async () => {
      const victim = uniqueId('nan-nhan');
      await createUsers(env(), [victim]);
      const guest = await becomeGuest(env(), uniqueId('khach-nhan'));
      const members = [guest.userID!, victim];

      await expectStreamError(guest.channel('messaging', { members }).watch(), { code: 17 });
      await expectStreamError(guest.channel('messaging', uniqueId('dm'), { members }).watch(), {
        code: 17,
      });
      // Nor through a support conversation, where guests may open channels for themselves.
      await expectStreamError(guest.channel('commerce', uniqueId('ho-tro'), { members }).watch(), {
        code: 17,
      });
    });

    it('a guest cannot pull a registered user into its own support channel', async () => {
      const victim = uniqueId('nan-nhan');
      await createUsers(env(), [victim]);
      const guest = await becomeGuest(env(), uniqueId('khach-keo'));
      const channel = await watchChannel(guest, 'commerce', uniqueId('ho-tro'), {
        members: [guest.userID!],
      });
      await sendText(channel, 'Xin chào, ta cần giúp đỡ.');

      await expectStreamError(channel.addMembers([victim]), { code: 17 });
      await expectStreamError(channel.inviteMembers([victim]), { code: 17 });
      const { members } = await channel.queryMembers({});
      expect(members.map((member) => member.user_id)).toEqual([guest.userID]);
    });

    it('a guest cannot write in a public channel', async () => {
      const owner = uniqueId('chuong-mon');
      const channelId = uniqueId('quang-truong');
      await createUsers(env(), [owner]);
      await createChannelAsServer(env(), 'livestream', channelId, owner, { members: [owner] });
      const guest = await becomeGuest(env(), uniqueId('khach-viet'));
      const channel = await watchChannel(guest, 'livestream', channelId);

      await expectStreamError(sendText(channel, 'Quảng cáo!'), { code: 17 });
      await expectStreamError(channel.addMembers([guest.userID!]), { code: 17 });
    });

    it('a guest cannot host files on our origin through a channel it belongs to', async () => {
      const guest = await becomeGuest(env(), uniqueId('khach-tep'));
      const channel = await watchChannel(guest, 'commerce', uniqueId('ho-tro'), {
        members: [guest.userID!],
      });

      expect(channel.data?.own_capabilities).not.toContain('upload-file');
      await expectStreamError(
        channel.sendFile(Readable.from([Buffer.from('<html>')]), 'trang.html', 'text/html'),
        { code: 17 },
      );
      await expectStreamError(
        channel.sendImage(Readable.from([Buffer.from('GIF89a')]), 'anh.gif', 'image/gif'),
        { code: 17 },
      );
    });

    it('a registered user who adds a guest to a conversation can talk with it', async () => {
      const hostId = uniqueId('chu-nha');
      const host = await connectUser(env(), hostId);
      const guest = await becomeGuest(env(), uniqueId('khach-moi'));
      const channelId = uniqueId('tiep-khach');
      await watchChannel(host, 'messaging', channelId, { members: [hostId, guest.userID!] });

      const channel = await watchChannel(guest, 'messaging', channelId);
      const message = await sendText(channel, 'Đa tạ đạo hữu.');

      expect(message.user?.id).toBe(guest.userID);
    });
  });

  describe('guest tokens in time', () => {
    const env = useContractEnv({
      config: { apps: [guestApp({ tokenTtlSeconds: TOKEN_TTL_SECONDS })] as never },
    });

    it('an expired guest token is refused with code 40', async () => {
      const guest = await becomeGuest(env(), uniqueId('khach-het-han'));
      const { exp } = claimsOf(guest);
      expect(exp as number).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + TOKEN_TTL_SECONDS);

      await waitUntilTime((exp as number) * 1000 + 1000);

      await expectStreamError(guest.queryChannels({ members: { $in: [guest.userID!] } }), {
        code: 40,
        status: 401,
      });
    });
  });

  describe('guest creation from one address', () => {
    const env = useContractEnv({
      config: {
        apps: [guestApp({})] as never,
        rateLimits: { perAddress: { createGuest: 3 } },
      },
    });

    it('an address cannot mint guests without limit: past the limit POST /guest answers code 9 / 429', async () => {
      for (let guest = 0; guest < 3; guest += 1) await becomeGuest(env(), uniqueId('khach'));

      await expectStreamError(newClient(env()).setGuestUser({ id: uniqueId('khach') }), {
        code: 9,
        status: 429,
      });
    });
  });
});
