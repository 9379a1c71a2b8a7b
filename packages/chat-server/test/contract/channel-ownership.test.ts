import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  expectStreamError,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

describe('the creator of a channel owns it', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('lets a creator who is not a member read, watch, update, truncate and delete the channel', async () => {
    const ownerId = uniqueId('chu-the');
    const [firstId, secondId] = [uniqueId('de-tu-a'), uniqueId('de-tu-b')];
    await createUsers(env(), [firstId, secondId]);
    const owner = await connectUser(env(), ownerId);
    const channelId = uniqueId('to-duong');
    const channel = owner.channel('team', channelId, { members: [firstId, secondId] });
    await channel.create();

    const watched = await channel.watch();
    expect(watched.channel.created_by?.id).toBe(ownerId);
    expect(watched.membership ?? null).toBeNull();
    expect(watched.channel.own_capabilities).toEqual(
      expect.arrayContaining(['update-channel', 'delete-channel']),
    );
    const updated = await channel.update({ name: 'Tổ đường mới' });
    expect(updated.channel.name).toBe('Tổ đường mới');
    await channel.truncate();
    const deleted = await channel.delete();
    expect(deleted.channel.deleted_at).toEqual(expect.any(String));
  });

  it('still refuses another user who neither created nor joined the channel', async () => {
    const ownerId = uniqueId('chu-the');
    const outsiderId = uniqueId('nguoi-ngoai');
    await createUsers(env(), [ownerId]);
    const outsider = await connectUser(env(), outsiderId);
    const channelId = uniqueId('mat-that');
    await env()
      .admin.channel('team', channelId, { created_by_id: ownerId, members: [ownerId] })
      .create();

    const channel = outsider.channel('team', channelId);
    await expectStreamError(channel.watch(), { code: 17, status: 403 });
    await expectStreamError(channel.update({ name: 'Chiếm đoạt' }), { code: 17 });
    await expectStreamError(channel.delete(), { code: 17 });
  });

  it('returns the members of a new distinct channel even with state:false', async () => {
    const aliceId = uniqueId('song-tu-a');
    const bobId = uniqueId('song-tu-b');
    await createUsers(env(), [bobId]);
    const alice = await connectUser(env(), aliceId);

    const channel = alice.channel('messaging', { members: [aliceId, bobId] });
    const response = await channel.query({ state: false });

    expect(response.members.map((member) => member.user_id).sort()).toEqual(
      [aliceId, bobId].sort(),
    );
    expect(Object.keys(channel.state.members).sort()).toEqual([aliceId, bobId].sort());
  });
});

describe('hiding a channel', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('announces channel.hidden once when an already hidden channel is hidden again', async () => {
    const userId = uniqueId('an-cu');
    const user = await connectUser(env(), userId);
    const channel = user.channel('messaging', uniqueId('son-dong'), { members: [userId] });
    await channel.watch();
    let hiddenEvents = 0;
    const counter = user.on('channel.hidden', () => {
      hiddenEvents += 1;
    });
    // Events reach the socket in order: once channel.visible arrives, every channel.hidden before it has too.
    const visible = waitForEvent(user, 'channel.visible');

    await channel.hide();
    await channel.hide();
    await channel.show();
    await visible;
    counter.unsubscribe();

    expect(hiddenEvents).toBe(1);
  });
});
