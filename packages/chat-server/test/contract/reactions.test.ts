import { describe, expect, it } from 'vitest';
import { channelWithMembers, nth, sendText, useContractEnv, waitForEvent } from './helpers.ts';

describe('reactions', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  async function trio(prefix: string) {
    const { members } = await channelWithMembers(env(), prefix, {
      users: [`${prefix}-a`, { prefix: `${prefix}-b`, user: { name: 'Mạnh Hạo' } }, `${prefix}-c`],
    });
    const [alice, bob, carol] = [nth(members, 0), nth(members, 1), nth(members, 2)];
    const aliceChannel = alice.channel;
    const message = await sendText(aliceChannel, 'Ta vừa đột phá Kết Đan!');
    return {
      aliceId: alice.id,
      bobId: bob.id,
      carolId: carol.id,
      alice: alice.client,
      bob: bob.client,
      carol: carol.client,
      aliceChannel,
      bobChannel: bob.channel,
      carolChannel: carol.channel,
      message,
    };
  }

  it('sends a reaction: the reply carries own reactions and groups, and the other watcher gets the full message', async () => {
    const { bobId, bobChannel, aliceChannel, message } = await trio('send');

    const seen = waitForEvent(
      aliceChannel,
      'reaction.new',
      (event) => event.reaction?.user_id === bobId,
    );
    const ownSeen = waitForEvent(
      bobChannel,
      'reaction.new',
      (event) => event.reaction?.user_id === bobId,
    );
    const response = await bobChannel.sendReaction(message.id, { type: 'love' });
    const event = await seen;
    await ownSeen;

    expect(response.reaction).toMatchObject({
      type: 'love',
      user_id: bobId,
      message_id: message.id,
      score: 1,
    });
    expect(response.message.own_reactions?.map((reaction) => reaction.type)).toEqual(['love']);
    expect(response.message.reaction_groups?.love).toMatchObject({ count: 1, sum_scores: 1 });
    expect(event.message).toMatchObject({ id: message.id, text: message.text });
    expect(event.message?.latest_reactions?.map((reaction) => reaction.user_id)).toEqual([bobId]);
    expect(event.reaction?.user?.name).toBe('Mạnh Hạo');

    const inAliceState = aliceChannel.state.messages.find((item) => item.id === message.id);
    expect(inAliceState?.reaction_groups?.love).toMatchObject({ count: 1, sum_scores: 1 });
    expect(inAliceState?.latest_reactions?.map((reaction) => reaction.user_id)).toEqual([bobId]);
    expect(inAliceState?.own_reactions).toEqual([]);
    const inBobState = bobChannel.state.messages.find((item) => item.id === message.id);
    expect(inBobState?.own_reactions?.map((reaction) => reaction.type)).toEqual(['love']);
  });

  it('adds up counts and scores per type across users in reaction_groups, reaction_counts and reaction_scores', async () => {
    const { alice, bobChannel, carolChannel, message } = await trio('score');

    await bobChannel.sendReaction(message.id, { type: 'like', score: 3 });
    await carolChannel.sendReaction(message.id, { type: 'like', score: 4 });
    await carolChannel.sendReaction(message.id, { type: 'wow' });

    const { message: reread } = await alice.getMessage(message.id);
    expect(reread.reaction_groups?.like).toMatchObject({
      count: 2,
      sum_scores: 7,
      first_reaction_at: expect.any(String),
      last_reaction_at: expect.any(String),
    });
    expect(reread.reaction_groups?.wow).toMatchObject({ count: 1, sum_scores: 1 });
    expect(reread.reaction_counts).toEqual({ like: 2, wow: 1 });
    expect(reread.reaction_scores).toEqual({ like: 7, wow: 1 });
    expect(reread.latest_reactions).toHaveLength(3);
    expect(reread.own_reactions).toEqual([]);
  });

  it('replaces the user’s previous reaction when enforce_unique is set', async () => {
    const { bobId, bobChannel, aliceChannel, message } = await trio('unique');
    await bobChannel.sendReaction(message.id, { type: 'love' });

    const seen = waitForEvent(
      aliceChannel,
      ['reaction.updated', 'reaction.new'],
      (event) => event.reaction?.type === 'haha' && event.reaction.user_id === bobId,
    );
    const response = await bobChannel.sendReaction(
      message.id,
      { type: 'haha' },
      { enforce_unique: true },
    );
    await seen;

    expect(response.message.own_reactions?.map((reaction) => reaction.type)).toEqual(['haha']);
    expect(response.message.reaction_counts).toEqual({ haha: 1 });
    const inAliceState = aliceChannel.state.messages.find((item) => item.id === message.id);
    expect(Object.keys(inAliceState?.reaction_groups ?? {})).toEqual(['haha']);
    expect(inAliceState?.latest_reactions?.map((reaction) => reaction.type)).toEqual(['haha']);
  });

  it('keeps one reaction per user and type: sending it twice changes nothing', async () => {
    const { bobChannel, alice, message } = await trio('twice');

    await bobChannel.sendReaction(message.id, { type: 'love' });
    await bobChannel.sendReaction(message.id, { type: 'love' });

    const { message: reread } = await alice.getMessage(message.id);
    expect(reread.reaction_groups?.love?.count).toBe(1);
  });

  it('deletes a reaction and tells the other watcher with the updated message', async () => {
    const { bobId, bobChannel, aliceChannel, message } = await trio('delete');
    await bobChannel.sendReaction(message.id, { type: 'sad' });
    await bobChannel.sendReaction(message.id, { type: 'like' });

    const seen = waitForEvent(
      aliceChannel,
      'reaction.deleted',
      (event) => event.reaction?.user_id === bobId,
    );
    const response = await bobChannel.deleteReaction(message.id, 'sad');
    const event = await seen;

    expect(response.message.own_reactions?.map((reaction) => reaction.type)).toEqual(['like']);
    expect(event.reaction?.type).toBe('sad');
    expect(event.message?.reaction_counts).toEqual({ like: 1 });
    const inAliceState = aliceChannel.state.messages.find((item) => item.id === message.id);
    expect(Object.keys(inAliceState?.reaction_groups ?? {})).toEqual(['like']);
  });

  it('returns own_reactions per requesting user while latest_reactions is shared', async () => {
    const { alice, bob, carol, aliceChannel, bobChannel, carolChannel, message } =
      await trio('own');
    await aliceChannel.sendReaction(message.id, { type: 'haha' });
    await bobChannel.sendReaction(message.id, { type: 'wow' });

    const asAlice = (await alice.getMessage(message.id)).message;
    const asBob = (await bob.getMessage(message.id)).message;
    const asCarol = (await carol.getMessage(message.id)).message;

    expect(asAlice.own_reactions?.map((reaction) => reaction.type)).toEqual(['haha']);
    expect(asBob.own_reactions?.map((reaction) => reaction.type)).toEqual(['wow']);
    expect(asCarol.own_reactions).toEqual([]);
    for (const view of [asAlice, asBob, asCarol]) {
      expect(view.latest_reactions?.map((reaction) => reaction.type).sort()).toEqual([
        'haha',
        'wow',
      ]);
    }
    const fresh = await carolChannel.query({ messages: { limit: 10 } });
    expect(fresh.messages.find((item) => item.id === message.id)?.own_reactions).toEqual([]);
  });

  it('pages through queryReactions filtered by type with the next cursor', async () => {
    const { alice, aliceChannel, bobChannel, carolChannel, message } = await trio('query');
    await aliceChannel.sendReaction(message.id, { type: 'love' });
    await bobChannel.sendReaction(message.id, { type: 'love' });
    await carolChannel.sendReaction(message.id, { type: 'like' });

    const first = await alice.queryReactions(message.id, { type: 'love' }, [{ created_at: -1 }], {
      limit: 1,
    });
    expect(first.reactions).toHaveLength(1);
    expect(first.next).toEqual(expect.any(String));
    const second = await alice.queryReactions(message.id, { type: 'love' }, [{ created_at: -1 }], {
      limit: 1,
      next: first.next,
    });

    const seen = [...first.reactions, ...second.reactions];
    expect(seen.map((reaction) => reaction.type)).toEqual(['love', 'love']);
    expect(new Set(seen.map((reaction) => reaction.user_id)).size).toBe(2);
    expect(seen[0]?.user?.id).toEqual(expect.any(String));
    const all = await alice.queryReactions(message.id, {});
    expect(all.reactions).toHaveLength(3);
  });
});
