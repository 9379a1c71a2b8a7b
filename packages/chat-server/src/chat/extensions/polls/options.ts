import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import type { ChannelAccess } from '../../core/channels/service.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { JsonObject } from '../../core/json.ts';
import type { PollsCore } from './core.ts';
import {
  assertDistinctTexts,
  MAX_OPTIONS,
  OPTION_RESERVED,
  readCustom,
  readId,
  readOption,
  type OptionInput,
} from './input.ts';
import type { PollRow, PollsRepo } from './repo.ts';
import { toOptionResponse, type PollOptionResponse } from './serialize.ts';

/** The options of a poll, one by one: suggested by voters (when the poll allows it) or edited by its owner. */
export interface PollOptionsService {
  createOption(
    actor: Actor,
    pollId: string,
    body: JsonObject,
  ): Promise<{ poll_option: PollOptionResponse }>;
  getOption(
    actor: Actor,
    pollId: string,
    optionId: string,
  ): Promise<{ poll_option: PollOptionResponse }>;
  updateOption(
    actor: Actor,
    pollId: string,
    body: JsonObject,
  ): Promise<{ poll_option: PollOptionResponse }>;
  removeOption(actor: Actor, pollId: string, optionId: string): Promise<Record<string, never>>;
}

export interface PollOptionsContext {
  deps: ChatDeps;
  core: PollsCore;
}

/** Inserts options in order from `startPosition`; an option's own position wins. */
export async function insertOptions(
  repo: PollsRepo,
  trx: Transaction<Database>,
  appId: string,
  pollId: string,
  options: OptionInput[],
  startPosition: number,
  now: string,
): Promise<void> {
  let position = startPosition;
  for (const option of options) {
    await repo.insertOption(trx, {
      app_id: appId,
      poll_id: pollId,
      id: option.id ?? crypto.randomUUID(),
      text: option.text,
      position: option.position ?? position,
      custom: JSON.stringify(option.custom),
      created_at: now,
      updated_at: now,
    });
    position += 1;
  }
}

/** The poll as stored after a write; gone meanwhile is code 16. */
export async function reloadPoll(
  deps: ChatDeps,
  repo: PollsRepo,
  appId: string,
  pollId: string,
): Promise<PollRow> {
  const poll = await repo.get(deps.db, appId, pollId);
  if (!poll) throw chatError.notFound(`poll with id ${pollId} does not exist`);
  return poll;
}

async function optionOf(
  { deps, core }: PollOptionsContext,
  appId: string,
  pollId: string,
  optionId: string,
) {
  const option = (await core.repo.options(deps.db, appId, pollId)).find((o) => o.id === optionId);
  if (!option) throw chatError.notFound(`option ${optionId} does not exist in poll ${pollId}`);
  return option;
}

async function optionResponse(
  { core }: PollOptionsContext,
  appId: string,
  pollId: string,
  optionId: string,
): Promise<PollOptionResponse> {
  const aggregate = (await core.repo.aggregates(appId, [pollId])).get(pollId)!;
  const option = aggregate.options.find((o) => o.id === optionId);
  if (!option) throw chatError.notFound(`option ${optionId} does not exist in poll ${pollId}`);
  return toOptionResponse(option, aggregate.countsByOption.get(optionId) ?? 0);
}

/** Someone other than the poll's owner may only suggest an option where the poll allows it and they may vote. */
function checkMaySuggest(actor: Actor, userId: string, poll: PollRow, access?: ChannelAccess) {
  const isOwner = actor.isServer || poll.created_by_id === userId;
  if (isOwner) return;
  if (poll.allow_user_suggested_options !== 1)
    throw chatError.notAllowed('this poll does not accept suggested options');
  if (!access) throw chatError.notAllowed('this poll is not on a message yet');
  requirePermission(access.permissions, 'cast-poll-vote', 'suggesting a poll option');
}

async function createOption(
  context: PollOptionsContext,
  actor: Actor,
  pollId: string,
  body: JsonObject,
): Promise<{ poll_option: PollOptionResponse }> {
  const { deps, core } = context;
  const { repo } = core;
  const userId = core.actingUser(actor, body.user_id);
  const { poll, access } = await core.readable(actor, pollId);
  checkMaySuggest(actor, userId, poll, access);
  if (poll.is_closed === 1) throw chatError.input('the poll is closed');
  const option = readOption(body, 'option');
  const existing = await repo.options(deps.db, actor.appId, pollId);
  if (existing.length >= MAX_OPTIONS)
    throw chatError.input(`a poll can have at most ${MAX_OPTIONS} options`);
  assertDistinctTexts([...existing.map((o) => o.text), option.text]);
  if (option.id && existing.some((o) => o.id === option.id))
    throw chatError.input(`option with id ${option.id} already exists`);
  const id = option.id ?? crypto.randomUUID();
  const now = deps.clock.now();
  const position = existing.reduce((max, o) => Math.max(max, o.position + 1), 0);
  await deps.writes.run(async (trx) => {
    await insertOptions(repo, trx, actor.appId, pollId, [{ ...option, id }], position, now);
    await repo.update(trx, actor.appId, pollId, { updated_at: now });
  });
  await core.announce(actor, 'poll.updated', await reloadPoll(deps, repo, actor.appId, pollId));
  return { poll_option: await optionResponse(context, actor.appId, pollId, id) };
}

async function getOption(
  context: PollOptionsContext,
  actor: Actor,
  pollId: string,
  optionId: string,
): Promise<{ poll_option: PollOptionResponse }> {
  await context.core.readable(actor, pollId);
  return { poll_option: await optionResponse(context, actor.appId, pollId, optionId) };
}

async function updateOption(
  context: PollOptionsContext,
  actor: Actor,
  pollId: string,
  body: JsonObject,
): Promise<{ poll_option: PollOptionResponse }> {
  const { deps, core } = context;
  const { repo } = core;
  await core.owned(actor, pollId);
  const optionId = readId(body.id, 'option id');
  if (!optionId) throw chatError.input('id is required');
  await optionOf(context, actor.appId, pollId, optionId);
  const option = readOption(body, 'option');
  const others = (await repo.options(deps.db, actor.appId, pollId)).filter(
    (o) => o.id !== optionId,
  );
  assertDistinctTexts([...others.map((o) => o.text), option.text]);
  const now = deps.clock.now();
  await deps.writes.run(async (trx) => {
    await repo.updateOption(trx, actor.appId, pollId, optionId, {
      text: option.text,
      ...(option.position === undefined ? {} : { position: option.position }),
      custom: JSON.stringify(readCustom(body, OPTION_RESERVED, 'poll option')),
      updated_at: now,
    });
    await repo.update(trx, actor.appId, pollId, { updated_at: now });
  });
  await core.announce(actor, 'poll.updated', await reloadPoll(deps, repo, actor.appId, pollId));
  return { poll_option: await optionResponse(context, actor.appId, pollId, optionId) };
}

async function removeOption(
  context: PollOptionsContext,
  actor: Actor,
  pollId: string,
  optionId: string,
): Promise<Record<string, never>> {
  const { deps, core } = context;
  const { repo } = core;
  await core.owned(actor, pollId);
  await optionOf(context, actor.appId, pollId, optionId);
  const now = deps.clock.now();
  await deps.writes.run(async (trx) => {
    await repo.removeOption(trx, actor.appId, pollId, optionId);
    await repo.update(trx, actor.appId, pollId, { updated_at: now });
  });
  await core.announce(actor, 'poll.updated', await reloadPoll(deps, repo, actor.appId, pollId));
  return {};
}

export function createPollOptionsService(context: PollOptionsContext): PollOptionsService {
  return {
    createOption: (actor, pollId, body) => createOption(context, actor, pollId, body),
    getOption: (actor, pollId, optionId) => getOption(context, actor, pollId, optionId),
    updateOption: (actor, pollId, body) => updateOption(context, actor, pollId, body),
    removeOption: (actor, pollId, optionId) => removeOption(context, actor, pollId, optionId),
  };
}
