import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import { readAnswer, readId } from './input.ts';
import type { PollRow, PollVoteRow } from './repo.ts';
import { toVoteResponse, type PollResponse, type PollVoteResponse } from './serialize.ts';
import type { PollVotesContext } from './votes.ts';

type Outcome =
  | { kind: 'unchanged'; vote: PollVoteRow }
  | { kind: 'poll.vote_casted' | 'poll.vote_changed'; vote: PollVoteRow };

/** What a vote chooses: a free answer (answer set) or an option of the poll (optionId set). */
interface VoteChoice {
  answer: string | null;
  optionId: string | undefined;
}

/** One vote being written: whose, on which poll, for what. */
interface VoteWrite extends VoteChoice {
  appId: string;
  poll: PollRow;
  pollId: string;
  userId: string;
}

/** The vote to remove, as the route names it. */
export interface VoteTarget {
  messageId: string;
  pollId: string;
  voteId: string;
  userId: string | undefined;
}

/** The poll on this message, and the actor's right to vote on it. */
async function votable(
  { deps, core, messages }: PollVotesContext,
  actor: Actor,
  messageId: string,
  pollId: string,
): Promise<PollRow> {
  const { row, access } = await messages.accessMessage(actor, messageId);
  const poll = await core.repo.get(deps.db, actor.appId, pollId);
  if (!poll || poll.message_id !== row.id)
    throw chatError.notFound(`poll with id ${pollId} does not exist on message ${messageId}`);
  if (!access.type.config.polls)
    throw chatError.featureNotSupported('polls are disabled for this channel type');
  requirePermission(access.permissions, 'cast-poll-vote', 'voting on a poll');
  if (poll.is_closed === 1) throw chatError.input('the poll is closed');
  return poll;
}

/** Reads the vote's answer or option and checks the poll takes it. */
async function readChoice(
  { deps, core }: PollVotesContext,
  actor: Actor,
  poll: PollRow,
  pollId: string,
  input: JsonObject,
): Promise<VoteChoice> {
  const isAnswer = input.answer_text !== undefined && input.answer_text !== null;
  const answer = isAnswer ? readAnswer(input.answer_text) : null;
  const optionId = isAnswer ? undefined : readId(input.option_id, 'vote.option_id');
  if (isAnswer && poll.allow_answers !== 1)
    throw chatError.input('this poll does not accept answers');
  if (!isAnswer) {
    if (!optionId) throw chatError.input('vote.option_id or vote.answer_text is required');
    const options = await core.repo.options(deps.db, actor.appId, pollId);
    if (!options.some((o) => o.id === optionId))
      throw chatError.input(`option ${optionId} does not exist in poll ${pollId}`);
  }
  return { answer, optionId };
}

function newVote(write: VoteWrite, now: string): PollVoteRow {
  const isAnswer = write.answer !== null;
  return {
    app_id: write.appId,
    id: crypto.randomUUID(),
    poll_id: write.pollId,
    user_id: write.userId,
    option_id: isAnswer ? null : write.optionId!,
    answer_text: write.answer,
    is_answer: isAnswer ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
}

/** One answer per user: a second one edits the first (same id) and counts as a change. */
async function recordAnswer(
  { core }: PollVotesContext,
  trx: Transaction<Database>,
  write: VoteWrite & { answer: string },
  mine: PollVoteRow[],
  now: string,
): Promise<Outcome> {
  const previous = mine.find((v) => v.is_answer === 1);
  if (previous) {
    await core.repo.updateVote(trx, write.appId, previous.id, {
      answer_text: write.answer,
      updated_at: now,
    });
    return {
      kind: 'poll.vote_changed',
      vote: { ...previous, answer_text: write.answer, updated_at: now },
    };
  }
  const vote = newVote(write, now);
  await core.repo.insertVote(trx, vote);
  return { kind: 'poll.vote_casted', vote };
}

/** A vote for an option: the same option again changes nothing; a unique-vote poll moves the vote. */
async function recordOptionVote(
  { core }: PollVotesContext,
  trx: Transaction<Database>,
  write: VoteWrite,
  mine: PollVoteRow[],
  now: string,
): Promise<Outcome> {
  const { poll } = write;
  const optionVotes = mine.filter((v) => v.is_answer === 0);
  const same = optionVotes.find((v) => v.option_id === write.optionId);
  if (same) return { kind: 'unchanged', vote: same };
  const vote = newVote(write, now);
  if (poll.enforce_unique_vote === 1 && optionVotes.length > 0) {
    for (const old of optionVotes) await core.repo.removeVote(trx, write.appId, old.id);
    await core.repo.insertVote(trx, vote);
    return { kind: 'poll.vote_changed', vote };
  }
  if (poll.max_votes_allowed !== null && optionVotes.length >= poll.max_votes_allowed) {
    throw chatError.input(
      `you have reached the maximum number of votes allowed (${poll.max_votes_allowed})`,
    );
  }
  await core.repo.insertVote(trx, vote);
  return { kind: 'poll.vote_casted', vote };
}

async function recordVote(
  context: PollVotesContext,
  trx: Transaction<Database>,
  write: VoteWrite,
): Promise<Outcome> {
  const now = context.deps.clock.now();
  const mine = await context.core.repo.votesOf(trx, write.appId, write.pollId, write.userId);
  if (write.answer !== null)
    return recordAnswer(context, trx, { ...write, answer: write.answer }, mine, now);
  return recordOptionVote(context, trx, write, mine, now);
}

export async function castVote(
  context: PollVotesContext,
  actor: Actor,
  messageId: string,
  pollId: string,
  body: JsonObject,
): Promise<{ vote: PollVoteResponse; poll: PollResponse }> {
  const { deps, core, users } = context;
  const userId = core.actingUser(actor, body.user_id);
  const input = body.vote;
  if (!isPlainObject(input)) throw chatError.input('vote is required');
  const poll = await votable(context, actor, messageId, pollId);
  const choice = await readChoice(context, actor, poll, pollId, input);
  const write: VoteWrite = { ...choice, appId: actor.appId, poll, pollId, userId };
  const outcome = await deps.writes.run<Outcome>((trx) => recordVote(context, trx, write));
  const fresh = (await core.repo.get(deps.db, actor.appId, pollId)) ?? poll;
  if (outcome.kind !== 'unchanged') await core.announce(actor, outcome.kind, fresh, outcome.vote);
  const voter = await users.responses(actor.appId, [userId]);
  return {
    vote: toVoteResponse(outcome.vote, voter, true),
    poll: await core.response(actor.appId, fresh, userId),
  };
}

export async function removeVote(
  context: PollVotesContext,
  actor: Actor,
  { messageId, pollId, voteId, userId: givenUser }: VoteTarget,
): Promise<{ vote: PollVoteResponse }> {
  const { deps, core, users } = context;
  const userId = core.actingUser(actor, givenUser);
  const poll = await votable(context, actor, messageId, pollId);
  const vote = await core.repo.vote(deps.db, actor.appId, voteId);
  if (!vote || vote.poll_id !== pollId)
    throw chatError.notFound(`vote with id ${voteId} does not exist`);
  if (vote.user_id !== userId && !actor.isServer)
    throw chatError.notAllowed('you can only remove your own votes');
  await deps.writes.run((trx) => core.repo.removeVote(trx, actor.appId, voteId));
  await core.announce(actor, 'poll.vote_removed', poll, vote);
  const voter = await users.responses(actor.appId, [vote.user_id]);
  return { vote: toVoteResponse(vote, voter, true) };
}
