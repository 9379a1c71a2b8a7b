import type { OwnUserResponse, StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  nth,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
} from './helpers.ts';

/** The mutes in the connected user's own object (`me`). */
const mutesOf = (client: StreamChat) => (client.user as OwnUserResponse | undefined)?.mutes ?? [];

// Stream apps clean up by hard-deleting their users; one created again under the same id must start clean.
describe('what a hard-deleted user kept in the extensions', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  async function scene(prefix: string) {
    const [alice, evil] = [uniqueId(`${prefix}-alice`), uniqueId(`${prefix}-evil`)];
    await createUsers(env(), [alice, evil]);
    const { admin } = env();
    await admin.muteUser(evil, alice);
    await admin.muteUser(alice, evil);
    await admin.blockUser(evil, alice);
    await admin.flagUser(evil, { user_id: alice });
    return { alice, evil, admin };
  }

  it('their mutes, blocks and flags go with them, so one created again under the same id is neither muted, blocked nor flagged', async () => {
    const { alice, evil, admin } = await scene('forget');

    await admin.deleteUser(evil, { hard_delete: true });
    await createUsers(env(), [evil]);

    const aliceClient = await connectUser(env(), alice);
    expect(mutesOf(aliceClient)).toEqual([]);
    expect((await admin.getBlockedUsers(alice)).blocks).toEqual([]);
    await expect(aliceClient.flagUser(evil)).resolves.toMatchObject({ flag: expect.anything() });
    const evilClient = await connectUser(env(), evil);
    expect(mutesOf(evilClient)).toEqual([]);
  });

  it('their mutes and blocks stay when the user is only soft-deleted', async () => {
    const { alice, evil, admin } = await scene('keep');

    await admin.deleteUser(evil);

    const aliceClient = await connectUser(env(), alice);
    expect(mutesOf(aliceClient).map((m) => m.target.id)).toEqual([evil]);
    expect((await admin.getBlockedUsers(alice)).blocks.map((b) => b.blocked_user_id)).toEqual([
      evil,
    ]);
  });

  it('their drafts, reminders, poll votes and in-app notifications go with them, and everyone else’s stay', async () => {
    const { admin } = env();
    const scene = await twoMembers(env(), 'own-rows');
    const { alice, bob, aliceChannel, bobChannel, bobId } = scene;
    const { poll } = await alice.createPoll({ name: 'Luận đạo?', options: [{ text: 'Có' }] });
    const option = nth(poll.options, 0).id;
    const asked = await sendText(aliceChannel, 'Ai luận đạo?', { poll_id: poll.id });
    for (const voter of [alice, bob])
      await voter.castPollVote(asked.id, poll.id, { option_id: option });
    for (const [client, channel] of [
      [alice, aliceChannel],
      [bob, bobChannel],
    ] as const) {
      await channel.createDraft({ text: 'Bản nháp' });
      await client.createReminder({ messageId: asked.id });
    }
    const notify = (userId: string) =>
      admin.post(`${admin.baseURL}/daohuu/notifications`, {
        user_id: userId,
        kind: 'breakthrough',
        data: { realm: 'Trúc Cơ' },
      });
    await notify(scene.aliceId);
    await notify(bobId);
    expect((await alice.getPoll(poll.id)).poll.vote_count).toBe(2);

    await bob.disconnectUser();
    await admin.deleteUser(bobId, { hard_delete: true });
    await createUsers(env(), [bobId]);
    // Back in the channel, so whatever of theirs was left there would show again.
    await aliceChannel.addMembers([bobId]);

    const again = await connectUser(env(), bobId);
    expect((await again.queryDrafts({})).drafts).toEqual([]);
    expect((await again.queryReminders({})).reminders).toEqual([]);
    const listed = await again.get<{ notifications: { kind: string }[] }>(
      `${again.baseURL}/daohuu/notifications`,
    );
    // Only what happened since: being added back.
    expect(listed.notifications.map((notification) => notification.kind)).toEqual([
      'added_to_channel',
    ]);
    const counted = (await alice.getPoll(poll.id)).poll;
    expect(counted.vote_count).toBe(1);
    expect(counted.latest_votes_by_option?.[option]?.map((vote) => vote.user_id)).toEqual([
      scene.aliceId,
    ]);
    // Alice's own rows are untouched.
    expect((await alice.queryDrafts({})).drafts).toHaveLength(1);
    expect((await alice.queryReminders({})).reminders).toHaveLength(1);
    const hers = await alice.get<{ notifications: unknown[] }>(
      `${alice.baseURL}/daohuu/notifications`,
    );
    expect(hers.notifications).toHaveLength(1);
  });
});
