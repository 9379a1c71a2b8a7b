import type {
  PollAnswer,
  PollOptionResponse as StreamPollOptionResponse,
  PollVote,
} from 'stream-chat';
import { compact, parseObject } from '../../core/json.ts';
import type { PollWireResponse } from '../../core/wire/types.ts';
import type { UserResponse } from '../../core/users/serialize.ts';
import type { PollAggregate, PollOptionRow, PollRow, PollVoteRow } from './repo.ts';

export interface PollVoteResponse {
  id: string;
  poll_id: string;
  option_id?: string;
  answer_text?: string;
  is_answer?: boolean;
  user_id?: string;
  user?: UserResponse;
  created_at: string;
  updated_at: string;
}

/** A vote with free text; `latest_answers` holds only these. */
export type PollAnswerResponse = PollVoteResponse & { answer_text: string; is_answer: true };

export interface PollOptionResponse {
  id: string;
  poll_id: string;
  text: string;
  position: number;
  vote_count: number;
  created_at: string;
  updated_at: string;
  [custom: string]: unknown;
}

export interface PollResponse {
  id: string;
  name: string;
  description: string;
  voting_visibility: string;
  enforce_unique_vote: boolean;
  max_votes_allowed?: number;
  allow_answers: boolean;
  allow_user_suggested_options: boolean;
  is_closed: boolean;
  options: PollOptionResponse[];
  vote_count: number;
  vote_counts_by_option: Record<string, number>;
  latest_votes_by_option: Record<string, PollVoteResponse[]>;
  answers_count: number;
  latest_answers: PollAnswerResponse[];
  own_votes: PollVoteResponse[];
  created_by_id: string;
  created_by: UserResponse | null;
  created_at: string;
  updated_at: string;
  [custom: string]: unknown;
}

export function isAnonymous(poll: Pick<PollRow, 'voting_visibility'>): boolean {
  return poll.voting_visibility === 'anonymous';
}

/** A vote or answer; `revealVoter` false hides who cast it (anonymous polls, except to the voter). */
export function toVoteResponse(
  vote: PollVoteRow,
  users: ReadonlyMap<string, UserResponse>,
  revealVoter: boolean,
): PollVoteResponse {
  return compact({
    id: vote.id,
    poll_id: vote.poll_id,
    option_id: vote.option_id ?? undefined,
    answer_text: vote.is_answer === 1 ? (vote.answer_text ?? '') : undefined,
    is_answer: vote.is_answer === 1 ? true : undefined,
    user_id: revealVoter ? vote.user_id : undefined,
    user: revealVoter ? users.get(vote.user_id) : undefined,
    created_at: vote.created_at,
    updated_at: vote.updated_at,
  }) satisfies PollVote;
}

/** An answer row (is_answer 1) as an answer: the same fields as its vote, typed as the client's PollAnswer. */
export function toAnswerResponse(
  answer: PollVoteRow,
  users: ReadonlyMap<string, UserResponse>,
  revealVoter: boolean,
): PollAnswerResponse {
  return {
    ...toVoteResponse(answer, users, revealVoter),
    answer_text: answer.answer_text ?? '',
    is_answer: true,
  } satisfies PollAnswer;
}

export function toOptionResponse(option: PollOptionRow, voteCount: number): PollOptionResponse {
  return {
    ...parseObject(option.custom),
    id: option.id,
    poll_id: option.poll_id,
    text: option.text,
    position: option.position,
    vote_count: voteCount,
    created_at: option.created_at,
    updated_at: option.updated_at,
  } satisfies StreamPollOptionResponse;
}

/** The user ids a poll response refers to (creator and the embedded voters). */
export function pollUserIds(poll: PollRow, aggregate: PollAggregate, own: PollVoteRow[]): string[] {
  const ids = [poll.created_by_id];
  for (const list of aggregate.latestByOption.values()) for (const v of list) ids.push(v.user_id);
  for (const v of aggregate.latestAnswers) ids.push(v.user_id);
  for (const v of own) ids.push(v.user_id);
  return ids;
}

/** The full, recomputed poll; `own` are the viewer's votes (empty for payloads shared by every watcher). */
export function toPollResponse(
  poll: PollRow,
  aggregate: PollAggregate,
  own: PollVoteRow[],
  users: ReadonlyMap<string, UserResponse>,
): PollResponse {
  const reveal = !isAnonymous(poll);
  const countsByOption: Record<string, number> = {};
  const latestByOption: Record<string, PollVoteResponse[]> = {};
  let voteCount = 0;
  for (const option of aggregate.options) {
    const count = aggregate.countsByOption.get(option.id) ?? 0;
    voteCount += count;
    if (count > 0) countsByOption[option.id] = count;
    const latest = aggregate.latestByOption.get(option.id);
    if (latest?.length)
      latestByOption[option.id] = latest.map((v) => toVoteResponse(v, users, reveal));
  }
  return compact({
    ...parseObject(poll.custom),
    id: poll.id,
    name: poll.name,
    description: poll.description,
    voting_visibility: poll.voting_visibility,
    enforce_unique_vote: poll.enforce_unique_vote === 1,
    max_votes_allowed: poll.max_votes_allowed ?? undefined,
    allow_answers: poll.allow_answers === 1,
    allow_user_suggested_options: poll.allow_user_suggested_options === 1,
    is_closed: poll.is_closed === 1,
    options: aggregate.options.map((o) =>
      toOptionResponse(o, aggregate.countsByOption.get(o.id) ?? 0),
    ),
    vote_count: voteCount,
    vote_counts_by_option: countsByOption,
    latest_votes_by_option: latestByOption,
    answers_count: aggregate.answersCount,
    latest_answers: aggregate.latestAnswers.map((v) => toAnswerResponse(v, users, reveal)),
    own_votes: own.map((v) => toVoteResponse(v, users, true)),
    created_by_id: poll.created_by_id,
    created_by: users.get(poll.created_by_id) ?? null,
    created_at: poll.created_at,
    updated_at: poll.updated_at,
  }) satisfies PollWireResponse;
}
