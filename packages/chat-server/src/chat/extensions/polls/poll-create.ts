import type { Insertable } from 'kysely';
import type { PollsTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
import {
  checkVoteRules,
  POLL_RESERVED,
  readCustom,
  readId,
  readOptions,
  readPollFields,
} from './input.ts';
import { insertOptions, reloadPoll } from './options.ts';
import type { PollResponse } from './serialize.ts';
import type { PollsContext } from './service.ts';

type NewPoll = Omit<Insertable<PollsTable>, 'created_at' | 'updated_at'>;

/** The row a create body describes (but its timestamps), read and checked in the order the errors are reported. */
function readNewPoll(actor: Actor, userId: string, body: JsonObject) {
  const fields = readPollFields(body);
  if (fields.name === undefined) throw chatError.input('name is required');
  const enforceUnique = fields.enforce_unique_vote ?? false;
  const maxVotes = fields.max_votes_allowed ?? null;
  checkVoteRules(enforceUnique, maxVotes);
  const options = readOptions(body.options);
  const id = readId(body.id, 'poll id') ?? crypto.randomUUID();
  const custom = readCustom(body, POLL_RESERVED, 'poll');
  const row: NewPoll = {
    app_id: actor.appId,
    id,
    name: fields.name,
    description: fields.description ?? '',
    created_by_id: userId,
    voting_visibility: fields.voting_visibility ?? 'public',
    enforce_unique_vote: enforceUnique ? 1 : 0,
    max_votes_allowed: maxVotes,
    allow_answers: fields.allow_answers ? 1 : 0,
    allow_user_suggested_options: fields.allow_user_suggested_options ? 1 : 0,
    is_closed: fields.is_closed ? 1 : 0,
    custom: JSON.stringify(custom),
    message_id: null,
    cid: null,
  };
  return { row, options };
}

export async function createPoll(
  { deps, core }: PollsContext,
  actor: Actor,
  body: JsonObject,
): Promise<{ poll: PollResponse }> {
  const { repo } = core;
  const userId = core.actingUser(actor, body.user_id);
  const parsed = readNewPoll(actor, userId, body);
  const now = deps.clock.now();
  const row: Insertable<PollsTable> = { ...parsed.row, created_at: now, updated_at: now };
  const { id } = row;
  if (await repo.get(deps.db, actor.appId, id))
    throw chatError.input(`poll with id ${id} already exists`);
  await deps.writes.run(async (trx) => {
    await repo.insert(trx, row);
    await insertOptions(repo, trx, actor.appId, id, parsed.options, 0, now);
  });
  const poll = await reloadPoll(deps, repo, actor.appId, id);
  return { poll: await core.response(actor.appId, poll, userId) };
}

export async function getPoll(
  { core }: PollsContext,
  actor: Actor,
  pollId: string,
): Promise<{ poll: PollResponse }> {
  const { poll } = await core.readable(actor, pollId);
  return { poll: await core.response(actor.appId, poll, actor.userId) };
}
