import { randomUUID } from 'node:crypto';
import { VotingVisibility, type PollResponse, type PollVote } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './contract/helpers.ts';

interface PollInput {
  name?: string;
  options?: { text: string }[];
  enforce_unique_vote?: boolean;
  max_votes_allowed?: number;
  allow_answers?: boolean;
  allow_user_suggested_options?: boolean;
  voting_visibility?: VotingVisibility;
}

describe('polls', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  /** Alice and Bob watch one channel; Alice creates a poll the way the composer does and sends it. */
  async function pollScene(prefix: string, input: PollInput = {}) {
    const { aliceId, bobId, alice, bob, aliceChannel, bobChannel } = await twoMembers(
      env(),
      prefix,
      { alice: { name: 'Hàn Lập' }, bob: { name: 'Mạnh Hạo' } },
    );
    // What stream-chat-react does on mount: the poll cache follows poll.* and message.new events.
    alice.polls.registerSubscriptions();
    bob.polls.registerSubscriptions();
    const pollId = randomUUID();
    const { poll: created } = await alice.createPoll({
      id: pollId,
      name: 'Nên bế quan bao lâu?',
      description: '',
      allow_answers: false,
      allow_user_suggested_options: false,
      enforce_unique_vote: true,
      voting_visibility: VotingVisibility.public,
      options: [{ text: 'Một tháng' }, { text: 'Một năm' }, { text: 'Trăm năm' }],
      user_id: aliceId,
      ...input,
    });
    const bobSeen = waitForEvent(bobChannel, 'message.new');
    const messageId = randomUUID();
    const sent = await aliceChannel.sendMessage({ id: messageId, poll_id: pollId });
    const bobEvent = await bobSeen;
    const optionIds = created.options.map((o) => o.id);
    return {
      aliceId,
      bobId,
      alice,
      bob,
      aliceChannel,
      bobChannel,
      pollId,
      created,
      messageId,
      sent,
      bobEvent,
      optionIds,
    };
  }

  function pollOf(value: unknown): PollResponse {
    const poll = (value as { poll?: PollResponse } | undefined)?.poll;
    if (!poll) throw new Error('the message carries no poll');
    return poll;
  }

  it('creates a poll with a client id and sends it as a poll-only message that embeds the full poll', async () => {
    const { pollId, created, aliceId, sent, bobEvent } = await pollScene('create');

    expect(created).toMatchObject({
      id: pollId,
      name: 'Nên bế quan bao lâu?',
      created_by_id: aliceId,
      enforce_unique_vote: true,
      voting_visibility: 'public',
      is_closed: false,
      vote_count: 0,
      vote_counts_by_option: {},
      answers_count: 0,
      latest_answers: [],
      own_votes: [],
    });
    expect(created.max_votes_allowed).toBeUndefined();
    expect(created.options.map((o) => o.text)).toEqual(['Một tháng', 'Một năm', 'Trăm năm']);
    expect(created.created_by).toMatchObject({ id: aliceId, name: 'Hàn Lập' });
    expect(sent.message.poll_id).toBe(pollId);
    expect(pollOf(sent.message).id).toBe(pollId);
    expect(bobEvent.message?.poll_id).toBe(pollId);
    expect(pollOf(bobEvent.message)).toMatchObject({ id: pollId, own_votes: [], vote_count: 0 });
  });

  it('keeps the poll of a message through an edit, whether the edit echoes poll_id or leaves it out', async () => {
    const { alice, aliceChannel, pollId, messageId } = await pollScene('edit-keeps');
    const local = aliceChannel.state.messages.find((m) => m.id === messageId)!;

    const echoed = await alice.updateMessage({ ...local, text: 'Bình chọn đi' });
    expect(pollOf(echoed.message).id).toBe(pollId);
    const without = await alice.updateMessage({ id: messageId, text: 'Chỉ sửa chữ' });
    expect(without.message.poll_id).toBe(pollId);
    expect(pollOf(without.message).id).toBe(pollId);
    await expectStreamError(alice.partialUpdateMessage(messageId, { unset: ['poll_id'] }), {
      code: 4,
      message: /poll_id/,
    });
  });

  it('casts a vote: the other user gets poll.vote_casted with the recomputed poll, and own_votes differ per user', async () => {
    const scene = await pollScene('vote');
    const { alice, bob, bobId, aliceChannel, pollId, messageId, optionIds } = scene;
    const seen = waitForEvent(alice, 'poll.vote_casted');
    await bob.castPollVote(messageId, pollId, { option_id: optionIds[1]! });
    const event = await seen;

    expect(event.poll_vote).toMatchObject({ user_id: bobId, option_id: optionIds[1] });
    expect(event.poll_vote?.user?.id).toBe(bobId);
    expect(event.poll).toMatchObject({
      id: pollId,
      vote_count: 1,
      vote_counts_by_option: { [optionIds[1]!]: 1 },
    });
    expect(event.poll?.latest_votes_by_option?.[optionIds[1]!]?.[0]?.user?.id).toBe(bobId);
    // Alice's client hydrated the poll from message.new, and updates it only from the event.
    expect(alice.polls.fromState(pollId)?.data.vote_counts_by_option).toEqual({
      [optionIds[1]!]: 1,
    });

    const bobView = (await bob.getPoll(pollId)).poll;
    expect(bobView.own_votes?.map((v) => v.option_id)).toEqual([optionIds[1]]);
    const aliceView = (await alice.getPoll(pollId)).poll;
    expect(aliceView.own_votes).toEqual([]);

    // Channel queries embed the poll with each viewer's own votes.
    const bobState = await bob
      .channel('messaging', aliceChannel.id!)
      .query({ messages: { limit: 5 } });
    const bobMessage = bobState.messages.find((m) => m.id === messageId);
    expect(pollOf(bobMessage).own_votes?.map((v) => v.option_id)).toEqual([optionIds[1]]);
    const aliceState = await aliceChannel.query({ messages: { limit: 5 } });
    expect(pollOf(aliceState.messages.find((m) => m.id === messageId)).own_votes).toEqual([]);
  });

  it('replaces the previous vote of a unique-vote poll and emits poll.vote_changed', async () => {
    const { alice, bob, bobId, pollId, messageId, optionIds } = await pollScene('unique');
    const first = waitForEvent(alice, 'poll.vote_casted');
    await bob.castPollVote(messageId, pollId, { option_id: optionIds[0]! });
    await first;

    const changed = waitForEvent(alice, 'poll.vote_changed');
    await bob.castPollVote(messageId, pollId, { option_id: optionIds[2]! });
    const event = await changed;
    expect(event.poll_vote).toMatchObject({ user_id: bobId, option_id: optionIds[2] });
    expect(event.poll?.vote_count).toBe(1);
    expect(event.poll?.vote_counts_by_option).toEqual({ [optionIds[2]!]: 1 });

    const own = (await bob.getPoll(pollId)).poll.own_votes;
    expect(own?.map((v) => v.option_id)).toEqual([optionIds[2]]);
  });

  it('refuses a vote beyond max_votes_allowed, and a limit outside 2 to 10', async () => {
    const { bob, pollId, messageId, optionIds } = await pollScene('max', {
      enforce_unique_vote: false,
      max_votes_allowed: 2,
    });
    await bob.castPollVote(messageId, pollId, { option_id: optionIds[0]! });
    await bob.castPollVote(messageId, pollId, { option_id: optionIds[1]! });
    await expectStreamError(bob.castPollVote(messageId, pollId, { option_id: optionIds[2]! }), {
      code: 4,
      status: 400,
      message: /maximum number of votes/,
    });
    expect((await bob.getPoll(pollId)).poll.vote_count).toBe(2);

    for (const max of [1, 11]) {
      await expectStreamError(
        bob.createPoll({
          name: 'Sai',
          options: [{ text: 'A' }],
          enforce_unique_vote: false,
          max_votes_allowed: max,
        }),
        { code: 4, message: /max_votes_allowed/ },
      );
    }
  });

  it('closes a poll with poll.closed for everyone, and refuses votes afterwards', async () => {
    const { alice, bob, pollId, messageId, optionIds } = await pollScene('close');
    await expectStreamError(bob.closePoll(pollId), { code: 17, status: 403 });
    const closed = waitForEvent(bob, 'poll.closed');
    await alice.closePoll(pollId);
    const event = await closed;
    expect(event.poll).toMatchObject({ id: pollId, is_closed: true });
    expect(bob.polls.fromState(pollId)?.data.is_closed).toBe(true);
    await expectStreamError(bob.castPollVote(messageId, pollId, { option_id: optionIds[0]! }), {
      code: 4,
      message: /closed/,
    });
  });

  it('hides voters of an anonymous poll from everyone, while the voter still recognises the own vote', async () => {
    const { alice, bob, bobId, pollId, messageId, optionIds } = await pollScene('anon', {
      voting_visibility: VotingVisibility.anonymous,
    });
    const aliceSeen = waitForEvent(alice, 'poll.vote_casted');
    const bobSeen = waitForEvent(bob, 'poll.vote_casted');
    await bob.castPollVote(messageId, pollId, { option_id: optionIds[0]! });
    const [aliceEvent, bobEvent] = await Promise.all([aliceSeen, bobSeen]);

    expect(aliceEvent.poll_vote?.user_id).toBeUndefined();
    expect(aliceEvent.poll_vote?.user).toBeUndefined();
    expect(aliceEvent.user).toBeUndefined();
    const latest = aliceEvent.poll?.latest_votes_by_option?.[optionIds[0]!] ?? [];
    expect(latest).toHaveLength(1);
    expect(latest[0]?.user).toBeUndefined();
    expect(latest[0]?.user_id).toBeUndefined();
    expect(bobEvent.poll_vote?.user_id).toBe(bobId);

    const votes = await alice.queryPollVotes(pollId, { option_id: optionIds[0]! });
    expect(votes.votes).toHaveLength(1);
    expect(votes.votes[0]?.user).toBeUndefined();
    expect(votes.votes[0]?.user_id).toBeUndefined();
    const own = await bob.queryPollVotes(pollId, { option_id: optionIds[0]! });
    expect(own.votes[0]?.user_id).toBe(bobId);
    expect(
      (await alice.getPoll(pollId)).poll.latest_votes_by_option[optionIds[0]!]?.[0]?.user,
    ).toBeUndefined();
  });

  it('takes answers only when allow_answers, one per user: a second answer edits the first', async () => {
    const closedScene = await pollScene('noanswers');
    await expectStreamError(
      closedScene.bob.addPollAnswer(closedScene.messageId, closedScene.pollId, 'Không được'),
      { code: 4, message: /answers/ },
    );

    const { alice, bob, bobId, pollId, messageId } = await pollScene('answers', {
      allow_answers: true,
    });
    const casted = waitForEvent(alice, 'poll.vote_casted');
    await bob.addPollAnswer(messageId, pollId, 'Tùy căn cơ');
    const first = await casted;
    expect(first.poll_vote).toMatchObject({
      answer_text: 'Tùy căn cơ',
      is_answer: true,
      user_id: bobId,
    });
    expect(first.poll).toMatchObject({ answers_count: 1, vote_count: 0 });
    expect(first.poll?.latest_answers?.[0]?.answer_text).toBe('Tùy căn cơ');

    const changed = waitForEvent(alice, 'poll.vote_changed');
    await bob.addPollAnswer(messageId, pollId, 'Trăm năm là ít');
    const second = await changed;
    expect(second.poll_vote?.id).toBe(first.poll_vote?.id);
    expect(second.poll?.answers_count).toBe(1);

    const answers = await alice.queryPollAnswers(pollId);
    expect(answers.votes.map((v) => v.answer_text)).toEqual(['Trăm năm là ít']);

    const removed = waitForEvent(alice, 'poll.vote_removed');
    await bob.removePollVote(messageId, pollId, first.poll_vote!.id);
    const gone = await removed;
    expect(gone.poll?.answers_count).toBe(0);
  });

  it('removes a vote with poll.vote_removed, and only the voter may remove it', async () => {
    const { alice, bob, pollId, messageId, optionIds } = await pollScene('unvote');
    const casted = waitForEvent(alice, 'poll.vote_casted');
    const { vote } = await bob.castPollVote(messageId, pollId, { option_id: optionIds[0]! });
    await casted;
    await expectStreamError(alice.removePollVote(messageId, pollId, vote.id), { code: 17 });
    const removed = waitForEvent(alice, 'poll.vote_removed');
    await bob.removePollVote(messageId, pollId, vote.id);
    const event = await removed;
    expect(event.poll_vote?.id).toBe(vote.id);
    expect(event.poll).toMatchObject({ vote_count: 0, vote_counts_by_option: {} });
  });

  it('lets the creator add, update and delete options, and others suggest one only when allowed', async () => {
    const { alice, bob, pollId, optionIds } = await pollScene('options');
    await expectStreamError(bob.createPollOption(pollId, { text: 'Góp ý' }), { code: 17 });

    const added = waitForEvent(bob, 'poll.updated');
    const { poll_option } = await alice.createPollOption(pollId, { text: 'Ngàn năm' });
    const event = await added;
    expect(event.poll?.options.map((o) => o.text)).toEqual([
      'Một tháng',
      'Một năm',
      'Trăm năm',
      'Ngàn năm',
    ]);
    expect(bob.polls.fromState(pollId)?.data.options).toHaveLength(4);
    await expectStreamError(alice.createPollOption(pollId, { text: 'Một năm' }), {
      code: 4,
      message: /duplicated/,
    });

    const renamed = waitForEvent(bob, 'poll.updated');
    await alice.updatePollOption(pollId, { id: poll_option.id, text: 'Vạn năm' });
    expect((await renamed).poll?.options.find((o) => o.id === poll_option.id)?.text).toBe(
      'Vạn năm',
    );
    expect((await bob.getPollOption(pollId, poll_option.id)).poll_option.text).toBe('Vạn năm');

    const deleted = waitForEvent(bob, 'poll.updated');
    await alice.deletePollOption(pollId, optionIds[0]!);
    expect((await deleted).poll?.options.map((o) => o.id)).not.toContain(optionIds[0]);

    const open = await pollScene('suggest', { allow_user_suggested_options: true });
    const suggested = waitForEvent(open.alice, 'poll.updated');
    await open.bob.createPollOption(open.pollId, { text: 'Tùy duyên' });
    expect((await suggested).poll?.options.map((o) => o.text)).toContain('Tùy duyên');
  });

  it('updates, partially updates and deletes a poll, for its creator only', async () => {
    const { alice, bob, pollId, optionIds, messageId, aliceChannel } = await pollScene('update');
    await expectStreamError(bob.partialUpdatePoll(pollId, { set: { name: 'Chiếm' } }), {
      code: 17,
    });

    const updated = waitForEvent(bob, 'poll.updated');
    await alice.partialUpdatePoll(pollId, {
      set: { name: 'Bế quan mấy năm?', allow_answers: true },
    });
    expect((await updated).poll).toMatchObject({ name: 'Bế quan mấy năm?', allow_answers: true });

    const replaced = waitForEvent(bob, 'poll.updated');
    const { poll } = await alice.updatePoll({
      id: pollId,
      name: 'Câu hỏi mới',
      enforce_unique_vote: false,
      max_votes_allowed: 3,
      options: [{ id: optionIds[0]!, text: 'Một tháng' }, { text: 'Mười năm' }],
    });
    expect(poll).toMatchObject({ name: 'Câu hỏi mới', max_votes_allowed: 3, allow_answers: false });
    expect(poll.options.map((o) => o.text)).toEqual(['Một tháng', 'Mười năm']);
    expect((await replaced).poll?.options).toHaveLength(2);

    await expectStreamError(bob.deletePoll(pollId), { code: 17 });
    const messageUpdated = waitForEvent(bob, 'message.updated');
    await alice.deletePoll(pollId);
    expect((await messageUpdated).message?.id).toBe(messageId);
    await expectStreamError(alice.getPoll(pollId), { code: 16, status: 404 });
    const state = await aliceChannel.query({ messages: { limit: 5 } });
    expect(state.messages.find((m) => m.id === messageId)?.poll).toBeUndefined();
  });

  it('queries polls and votes with filters, sort and cursors', async () => {
    const { alice, bob, pollId, messageId, optionIds, aliceId } = await pollScene('query', {
      enforce_unique_vote: false,
    });
    for (const optionId of optionIds)
      await bob.castPollVote(messageId, pollId, { option_id: optionId });
    await alice.castPollVote(messageId, pollId, { option_id: optionIds[0]! });

    const firstOption = await alice.queryPollVotes(pollId, { option_id: optionIds[0]! }, [
      { created_at: -1 },
    ]);
    expect(firstOption.votes).toHaveLength(2);
    expect(firstOption.votes[0]?.user_id).toBe(aliceId);

    const page1 = await alice.queryPollVotes(pollId, {}, [{ created_at: 1 }], { limit: 3 });
    expect(page1.votes).toHaveLength(3);
    expect(page1.next).toBeTruthy();
    const page2 = await alice.queryPollVotes(pollId, {}, [{ created_at: 1 }], {
      limit: 3,
      next: page1.next,
    });
    expect(page2.votes.map((v: PollVote) => v.id)).toHaveLength(1);
    expect(page2.next).toBeUndefined();

    const mine = await alice.queryPolls({ id: pollId });
    expect(mine.polls.map((p) => p.id)).toEqual([pollId]);
    expect(mine.polls[0]?.own_votes?.map((v) => v.option_id)).toEqual([optionIds[0]]);
    // Bob belongs to the channel carrying the poll, so he finds it too.
    const bobs = await bob.queryPolls({ is_closed: false, id: pollId });
    expect(bobs.polls).toHaveLength(1);
    const stranger = await connectUser(env(), uniqueId('query-c'));
    expect((await stranger.queryPolls({ id: pollId })).polls).toEqual([]);
    await expectStreamError(stranger.getPoll(pollId), { code: 17 });
  });

  it('embeds the poll in thread replies that carry one', async () => {
    const { alice, aliceChannel, messageId } = await pollScene('reply');
    const { poll } = await alice.createPoll({ name: 'Trong luồng', options: [{ text: 'Có' }] });
    await aliceChannel.sendMessage({
      id: randomUUID(),
      text: 'bình chọn',
      parent_id: messageId,
      poll_id: poll.id,
    });
    const { messages } = await aliceChannel.getReplies(messageId, { limit: 5 });
    expect(pollOf(messages[0]).id).toBe(poll.id);
  });

  it('refuses bad poll input and polls the sender may not send', async () => {
    const { alice, bob, aliceChannel, bobChannel, pollId } = await pollScene('bad');
    await expectStreamError(alice.createPoll({ name: '', options: [] }), { code: 4, status: 400 });
    await expectStreamError(
      alice.createPoll({ name: 'Trùng', options: [{ text: 'A' }, { text: 'A' }] }),
      { code: 4, message: /duplicated/ },
    );
    await expectStreamError(
      alice.createPoll({ id: pollId, name: 'Lặp id', options: [{ text: 'A' }] }),
      { code: 4, message: /already exists/ },
    );
    await expectStreamError(
      alice.createPoll({ name: 'X', voting_visibility: 'secret' as VotingVisibility, options: [] }),
      { code: 4, message: /voting_visibility/ },
    );
    // Someone else's poll, a poll already on a message, and a poll that does not exist.
    await expectStreamError(bobChannel.sendMessage({ id: randomUUID(), poll_id: pollId }), {
      code: 17,
    });
    await expectStreamError(aliceChannel.sendMessage({ id: randomUUID(), poll_id: pollId }), {
      code: 4,
      message: /already attached/,
    });
    await expectStreamError(aliceChannel.sendMessage({ id: randomUUID(), poll_id: 'missing' }), {
      code: 4,
      message: /does not exist/,
    });
    await expectStreamError(bob.castPollVote('no-such-message', pollId, { option_id: 'x' }), {
      code: 16,
    });
    const { poll } = await alice.createPoll({ name: 'Chưa gửi', options: [{ text: 'A' }] });
    await expectStreamError(bob.getPoll(poll.id), { code: 16 });
  });
});
