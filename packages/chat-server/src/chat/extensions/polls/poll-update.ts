import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import type { PollEventType } from './core.ts';
import {
  checkVoteRules,
  POLL_RESERVED,
  readCustom,
  readId,
  readOptions,
  readPollFields,
  type OptionInput,
  type PollFields,
} from './input.ts';
import { insertOptions, reloadPoll } from './options.ts';
import type { PollRow } from './repo.ts';
import type { PollResponse } from './serialize.ts';
import type { PollsContext } from './service.ts';

function toColumns(fields: PollFields): Partial<PollRow> {
  const columns: Partial<PollRow> = {};
  if (fields.name !== undefined) columns.name = fields.name;
  if (fields.description !== undefined) columns.description = fields.description;
  if (fields.voting_visibility !== undefined) columns.voting_visibility = fields.voting_visibility;
  if (fields.enforce_unique_vote !== undefined)
    columns.enforce_unique_vote = fields.enforce_unique_vote ? 1 : 0;
  if (fields.max_votes_allowed !== undefined) columns.max_votes_allowed = fields.max_votes_allowed;
  if (fields.allow_answers !== undefined) columns.allow_answers = fields.allow_answers ? 1 : 0;
  if (fields.allow_user_suggested_options !== undefined)
    columns.allow_user_suggested_options = fields.allow_user_suggested_options ? 1 : 0;
  if (fields.is_closed !== undefined) columns.is_closed = fields.is_closed ? 1 : 0;
  return columns;
}

/** Which event a poll change announces: closing is poll.closed, anything else poll.updated. */
function changeEvent(before: PollRow, after: Partial<PollRow>): PollEventType {
  return before.is_closed === 0 && after.is_closed === 1 ? 'poll.closed' : 'poll.updated';
}

/** What `unset` of a partial update does to each field: built-in ones go back to their defaults. */
function applyUnset(columns: Partial<PollRow>, custom: JsonObject, unset: readonly string[]): void {
  for (const key of unset) {
    if (key === 'name') throw chatError.input('name cannot be unset');
    if (key === 'description') columns.description = '';
    else if (key === 'max_votes_allowed') columns.max_votes_allowed = null;
    else if (
      key === 'enforce_unique_vote' ||
      key === 'allow_answers' ||
      key === 'allow_user_suggested_options' ||
      key === 'is_closed'
    )
      columns[key] = 0;
    else if (key === 'voting_visibility') columns.voting_visibility = 'public';
    else delete custom[key];
  }
}

/** A full update's options replace the poll's: missing ones go, known ids are edited, new ones are added. */
async function replaceOptions(
  { core }: PollsContext,
  trx: Transaction<Database>,
  target: { appId: string; pollId: string; now: string },
  options: OptionInput[],
): Promise<void> {
  const { repo } = core;
  const { appId, pollId, now } = target;
  const existing = await repo.options(trx, appId, pollId);
  const kept = new Set(options.map((o) => o.id).filter((id): id is string => !!id));
  for (const option of existing)
    if (!kept.has(option.id)) await repo.removeOption(trx, appId, pollId, option.id);
  const known = new Set(existing.map((o) => o.id));
  for (const [index, option] of options.entries()) {
    if (option.id && known.has(option.id)) {
      await repo.updateOption(trx, appId, pollId, option.id, {
        text: option.text,
        position: option.position ?? index,
        custom: JSON.stringify(option.custom),
        updated_at: now,
      });
    } else {
      await insertOptions(repo, trx, appId, pollId, [option], index, now);
    }
  }
}

/** Reloads the changed poll, announces the change and answers with the actor's view of it. */
async function announceChange(
  { deps, core }: PollsContext,
  actor: Actor,
  before: PollRow,
  pollId: string,
): Promise<{ poll: PollResponse }> {
  const poll = await reloadPoll(deps, core.repo, actor.appId, pollId);
  await core.announce(actor, changeEvent(before, poll), poll);
  return { poll: await core.response(actor.appId, poll, actor.userId) };
}

export async function updatePoll(
  context: PollsContext,
  actor: Actor,
  body: JsonObject,
): Promise<{ poll: PollResponse }> {
  const { deps, core } = context;
  const pollId = readId(body.id, 'poll id');
  if (!pollId) throw chatError.input('id is required');
  const before = await core.owned(actor, pollId);
  const fields = readPollFields(body);
  if (fields.name === undefined) throw chatError.input('name is required');
  // A full update: absent flags fall back to their defaults, as a replacement would.
  const columns = toColumns({
    description: '',
    voting_visibility: 'public',
    enforce_unique_vote: false,
    max_votes_allowed: null,
    allow_answers: false,
    allow_user_suggested_options: false,
    is_closed: false,
    ...fields,
  });
  checkVoteRules(columns.enforce_unique_vote === 1, columns.max_votes_allowed ?? null);
  const options = body.options === undefined ? undefined : readOptions(body.options);
  const now = deps.clock.now();
  await deps.writes.run(async (trx) => {
    await core.repo.update(trx, actor.appId, pollId, {
      ...columns,
      custom: JSON.stringify(readCustom(body, POLL_RESERVED, 'poll')),
      updated_at: now,
    });
    if (!options) return;
    await replaceOptions(context, trx, { appId: actor.appId, pollId, now }, options);
  });
  return announceChange(context, actor, before, pollId);
}

/** The `set` and `unset` of a partial update, checked in the order the errors are reported. */
function readPartial(body: JsonObject): { set: JsonObject; unset: string[] } {
  const set = body.set === undefined || body.set === null ? {} : body.set;
  if (!isPlainObject(set)) throw chatError.input('set must be an object');
  const unset = body.unset === undefined || body.unset === null ? [] : body.unset;
  if (!Array.isArray(unset) || unset.some((k) => typeof k !== 'string'))
    throw chatError.input('unset must be a list of field names');
  if ('options' in set) throw chatError.input('options cannot be set by a partial update');
  return { set, unset: unset as string[] };
}

export async function partialUpdatePoll(
  context: PollsContext,
  actor: Actor,
  pollId: string,
  body: JsonObject,
): Promise<{ poll: PollResponse }> {
  const { deps, core } = context;
  const before = await core.owned(actor, pollId);
  const { set, unset } = readPartial(body);
  const columns = toColumns(readPollFields(set));
  const custom = {
    ...(JSON.parse(before.custom) as JsonObject),
    ...readCustom(set, POLL_RESERVED, 'poll'),
  };
  applyUnset(columns, custom, unset);
  checkVoteRules(
    (columns.enforce_unique_vote ?? before.enforce_unique_vote) === 1,
    columns.max_votes_allowed === undefined ? before.max_votes_allowed : columns.max_votes_allowed,
  );
  await deps.writes.run((trx) =>
    core.repo.update(trx, actor.appId, pollId, {
      ...columns,
      custom: JSON.stringify(custom),
      updated_at: deps.clock.now(),
    }),
  );
  return announceChange(context, actor, before, pollId);
}
