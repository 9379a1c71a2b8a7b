import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  expectStreamError,
  uniqueId,
  useContractEnv,
  watchChannel,
} from './helpers.ts';

/*
 * What a watch answers (channels/state.ts): Stream sends the watcher list only when the request asks for a page of
 * it (`watchers: {limit, offset}`); `watcher_count` always comes. A reconnect storm of thousands of watchers would
 * otherwise read and send a hundred users with every watch.
 */

const env = useContractEnv();

/** A livestream channel created by the server and `count` fresh users watching it, in order. */
async function watchedLivestream(prefix: string, count: number) {
  const ownerId = uniqueId('chu-tri');
  await createUsers(env(), [ownerId]);
  const channelId = uniqueId(prefix);
  await createChannelAsServer(env(), 'livestream', channelId, ownerId);
  const watcherIds: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = uniqueId(`khach-${i}`);
    await watchChannel(await connectUser(env(), id), 'livestream', channelId);
    watcherIds.push(id);
  }
  return { channelId, watcherIds };
}

describe('the answer to a watch', { timeout: 30_000 }, () => {
  it('carries no watcher list without a watchers page, but the count of every watcher', async () => {
    const { channelId } = await watchedLivestream('quang-truong', 3);
    const latecomer = await connectUser(env(), uniqueId('nguoi-den-muon'));
    const channel = latecomer.channel('livestream', channelId);

    const answer = await channel.watch();

    expect(answer.watchers ?? []).toEqual([]);
    expect(answer.watcher_count).toBe(4);
    expect(channel.state.watcher_count).toBe(4);
  });

  it('pages the watchers in the order they arrived when asked, whatever the page the count stays whole', async () => {
    const { channelId, watcherIds } = await watchedLivestream('dien-vo', 3);
    const observer = await connectUser(env(), uniqueId('quan-sat'));
    const channel = observer.channel('livestream', channelId);

    const first = await channel.query({ watch: true, watchers: { limit: 2 } });
    expect((first.watchers ?? []).map((user) => user.id)).toEqual(watcherIds.slice(0, 2));
    expect(first.watcher_count).toBe(4);

    const rest = await channel.query({ watchers: { limit: 10, offset: 2 } });
    expect((rest.watchers ?? []).map((user) => user.id)).toEqual([watcherIds[2], observer.userID]);
    const none = await channel.query({ watchers: { limit: 0 } });
    expect(none.watchers ?? []).toEqual([]);
    expect(none.watcher_count).toBe(4);
  });

  it('answers queryChannels with the watcher count of each channel and no watcher list', async () => {
    const { channelId } = await watchedLivestream('luan-dao', 2);
    const viewer = await connectUser(env(), uniqueId('doc-gia'));
    const answer = await viewer.queryChannelsRequest({ id: channelId }, {}, { watch: false });

    expect(answer).toHaveLength(1);
    expect(answer[0]?.watchers ?? []).toEqual([]);
    expect(answer[0]?.watcher_count).toBe(2);
  });

  it('refuses a watchers page out of range with an input error naming the field', async () => {
    const { channelId } = await watchedLivestream('gioi-han', 1);
    const viewer = await connectUser(env(), uniqueId('to-mo'));
    const channel = viewer.channel('livestream', channelId);

    await expectStreamError(channel.query({ watchers: { limit: 301 } }), {
      code: 4,
      status: 400,
      message: /watchers\.limit/,
    });
    await expectStreamError(channel.query({ watchers: { limit: 5, offset: -1 } }), {
      code: 4,
      status: 400,
      message: /watchers/,
    });
  });

  it("answers with the caller's membership and capabilities as its access check read them", async () => {
    const ownerId = uniqueId('tong-chu');
    const moderatorId = uniqueId('truong-lao');
    const bannedId = uniqueId('bi-cam');
    await createUsers(env(), [ownerId, moderatorId, bannedId]);
    const channelId = uniqueId('nghi-su');
    await createChannelAsServer(env(), 'team', channelId, ownerId, {
      members: [ownerId, moderatorId, bannedId],
    });
    await env().admin.channel('team', channelId).addModerators([moderatorId]);
    await env().admin.banUser(bannedId, { banned_by_id: ownerId });

    const moderator = await connectUser(env(), moderatorId);
    const asModerator = await moderator.channel('team', channelId).watch();
    expect(asModerator.membership?.user?.id).toBe(moderatorId);
    expect(asModerator.membership?.channel_role).toBe('channel_moderator');
    expect(asModerator.channel.own_capabilities).toContain('send-message');
    expect(asModerator.channel.own_capabilities).toContain('delete-any-message');

    const banned = await connectUser(env(), bannedId);
    const asBanned = await banned.channel('team', channelId).watch();
    expect(asBanned.membership?.user?.id).toBe(bannedId);
    expect(asBanned.channel.own_capabilities).toContain('read-events');
    expect(asBanned.channel.own_capabilities).not.toContain('send-message');
  });
});
