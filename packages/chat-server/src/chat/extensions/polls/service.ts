import type { Insertable } from 'kysely';
import type { PollsTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import { toWatchersWhoSee } from '../../core/access/visibility.ts';
import type { PollsCore } from './core.ts';
import {
  assertDistinctTexts,
  checkVoteRules,
  MAX_OPTIONS,
  OPTION_RESERVED,
  POLL_RESERVED,
  readCustom,
  readId,
  readOption,
  readOptions,
  readPollFields,
  type OptionInput,
  type PollFields,
} from './input.ts';
import type { PollRow } from './repo.ts';
import { toOptionResponse, type PollOptionResponse, type PollResponse } from './serialize.ts';

export interface PollsService {
  create(actor: Actor, body: JsonObject): Promise<{ poll: PollResponse }>;
  get(actor: Actor, pollId: string): Promise<{ poll: PollResponse }>;
  update(actor: Actor, body: JsonObject): Promise<{ poll: PollResponse }>;
  partialUpdate(actor: Actor, pollId: string, body: JsonObject): Promise<{ poll: PollResponse }>;
  remove(actor: Actor, pollId: string): Promise<Record<string, never>>;
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
function changeEvent(before: PollRow, after: Partial<PollRow>): string {
  return before.is_closed === 0 && after.is_closed === 1 ? 'poll.closed' : 'poll.updated';
}

export function createPollsService(
  deps: ChatDeps,
  core: PollsCore,
  messages: MessagesService,
  assembler: MessageAssembler,
  events: EventPublisher,
): PollsService {
  const { repo } = core;

  // Every assembled message that carries a poll embeds it, with the viewer's own votes: only the poll attached to
  // that very message (a send not yet committed has not recorded the attachment the send hook checked).
  assembler.addEnricher(async (appId, rows, viewerId, { fresh }) => {
    const pollIds = new Map<string, string>();
    for (const row of rows) {
      if (!row.custom.includes('"poll_id"')) continue;
      const pollId = JSON.parse(row.custom).poll_id as unknown;
      if (typeof pollId === 'string') pollIds.set(row.id, pollId);
    }
    const result = new Map<string, Record<string, unknown>>();
    if (pollIds.size === 0) return result;
    const polls = await repo.getMany(appId, [...pollIds.values()]);
    const responses = await core.responses(appId, [...polls.values()], viewerId);
    for (const [messageId, pollId] of pollIds) {
      const poll = responses.get(pollId);
      const attachedHere = fresh || polls.get(pollId)?.message_id === messageId;
      if (poll && attachedHere) result.set(messageId, { poll });
    }
    return result;
  });

  async function insertOptions(
    trx: Parameters<Parameters<ChatDeps['writes']['run']>[0]>[0],
    appId: string,
    pollId: string,
    options: OptionInput[],
    startPosition: number,
    now: string,
  ) {
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

  async function reload(appId: string, pollId: string): Promise<PollRow> {
    const poll = await repo.get(deps.db, appId, pollId);
    if (!poll) throw chatError.notFound(`poll with id ${pollId} does not exist`);
    return poll;
  }

  async function optionOf(appId: string, pollId: string, optionId: string) {
    const option = (await repo.options(deps.db, appId, pollId)).find((o) => o.id === optionId);
    if (!option) throw chatError.notFound(`option ${optionId} does not exist in poll ${pollId}`);
    return option;
  }

  async function optionResponse(appId: string, pollId: string, optionId: string) {
    const aggregate = (await repo.aggregates(appId, [pollId])).get(pollId)!;
    const option = aggregate.options.find((o) => o.id === optionId);
    if (!option) throw chatError.notFound(`option ${optionId} does not exist in poll ${pollId}`);
    return toOptionResponse(option, aggregate.countsByOption.get(optionId) ?? 0);
  }

  return {
    async create(actor, body) {
      const userId = core.actingUser(actor, body.user_id);
      const fields = readPollFields(body);
      if (fields.name === undefined) throw chatError.input('name is required');
      const enforceUnique = fields.enforce_unique_vote ?? false;
      const maxVotes = fields.max_votes_allowed ?? null;
      checkVoteRules(enforceUnique, maxVotes);
      const options = readOptions(body.options);
      const id = readId(body.id, 'poll id') ?? crypto.randomUUID();
      const custom = readCustom(body, POLL_RESERVED, 'poll');
      const now = deps.clock.now();
      const row: Insertable<PollsTable> = {
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
        created_at: now,
        updated_at: now,
      };
      if (await repo.get(deps.db, actor.appId, id))
        throw chatError.input(`poll with id ${id} already exists`);
      await deps.writes.run(async (trx) => {
        await repo.insert(trx, row);
        await insertOptions(trx, actor.appId, id, options, 0, now);
      });
      const poll = await reload(actor.appId, id);
      return { poll: await core.response(actor.appId, poll, userId) };
    },

    async get(actor, pollId) {
      const { poll } = await core.readable(actor, pollId);
      return { poll: await core.response(actor.appId, poll, actor.userId) };
    },

    async update(actor, body) {
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
        await repo.update(trx, actor.appId, pollId, {
          ...columns,
          custom: JSON.stringify(readCustom(body, POLL_RESERVED, 'poll')),
          updated_at: now,
        });
        if (!options) return;
        const existing = await repo.options(trx, actor.appId, pollId);
        const kept = new Set(options.map((o) => o.id).filter((id): id is string => !!id));
        for (const option of existing)
          if (!kept.has(option.id)) await repo.removeOption(trx, actor.appId, pollId, option.id);
        const known = new Set(existing.map((o) => o.id));
        for (const [index, option] of options.entries()) {
          if (option.id && known.has(option.id)) {
            await repo.updateOption(trx, actor.appId, pollId, option.id, {
              text: option.text,
              position: option.position ?? index,
              custom: JSON.stringify(option.custom),
              updated_at: now,
            });
          } else {
            await insertOptions(trx, actor.appId, pollId, [option], index, now);
          }
        }
      });
      const poll = await reload(actor.appId, pollId);
      await core.announce(actor, changeEvent(before, poll), poll);
      return { poll: await core.response(actor.appId, poll, actor.userId) };
    },

    async partialUpdate(actor, pollId, body) {
      const before = await core.owned(actor, pollId);
      const set = body.set === undefined || body.set === null ? {} : body.set;
      if (!isPlainObject(set)) throw chatError.input('set must be an object');
      const unset = body.unset === undefined || body.unset === null ? [] : body.unset;
      if (!Array.isArray(unset) || unset.some((k) => typeof k !== 'string'))
        throw chatError.input('unset must be a list of field names');
      if ('options' in set) throw chatError.input('options cannot be set by a partial update');
      const columns = toColumns(readPollFields(set));
      const custom = {
        ...(JSON.parse(before.custom) as JsonObject),
        ...readCustom(set, POLL_RESERVED, 'poll'),
      };
      for (const key of unset as string[]) {
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
      checkVoteRules(
        (columns.enforce_unique_vote ?? before.enforce_unique_vote) === 1,
        columns.max_votes_allowed === undefined
          ? before.max_votes_allowed
          : columns.max_votes_allowed,
      );
      await deps.writes.run((trx) =>
        repo.update(trx, actor.appId, pollId, {
          ...columns,
          custom: JSON.stringify(custom),
          updated_at: deps.clock.now(),
        }),
      );
      const poll = await reload(actor.appId, pollId);
      await core.announce(actor, changeEvent(before, poll), poll);
      return { poll: await core.response(actor.appId, poll, actor.userId) };
    },

    async remove(actor, pollId) {
      const poll = await core.owned(actor, pollId);
      await deps.writes.run((trx) => repo.remove(trx, actor.appId, pollId));
      // The carrying message stays; it simply no longer embeds a poll. Watchers learn it from message.updated.
      if (poll.message_id && poll.cid) {
        const message = await messages.eventMessage(actor.appId, poll.message_id).catch(() => null);
        if (message) {
          const at = poll.cid.indexOf(':');
          await toWatchersWhoSee(
            deps.db,
            events,
            actor.appId,
            { cid: poll.cid },
            message.created_at,
            {
              type: 'message.updated',
              cid: poll.cid,
              channel_type: poll.cid.slice(0, at),
              channel_id: poll.cid.slice(at + 1),
              message,
              user: message.user,
              created_at: deps.clock.now(),
            },
          );
        }
      }
      return {};
    },

    async createOption(actor, pollId, body) {
      const userId = core.actingUser(actor, body.user_id);
      const { poll, access } = await core.readable(actor, pollId);
      const isOwner = actor.isServer || poll.created_by_id === userId;
      if (!isOwner) {
        if (poll.allow_user_suggested_options !== 1)
          throw chatError.notAllowed('this poll does not accept suggested options');
        if (!access) throw chatError.notAllowed('this poll is not on a message yet');
        requirePermission(access.permissions, 'cast-poll-vote', 'suggesting a poll option');
      }
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
        await insertOptions(trx, actor.appId, pollId, [{ ...option, id }], position, now);
        await repo.update(trx, actor.appId, pollId, { updated_at: now });
      });
      await core.announce(actor, 'poll.updated', await reload(actor.appId, pollId));
      return { poll_option: await optionResponse(actor.appId, pollId, id) };
    },

    async getOption(actor, pollId, optionId) {
      await core.readable(actor, pollId);
      return { poll_option: await optionResponse(actor.appId, pollId, optionId) };
    },

    async updateOption(actor, pollId, body) {
      await core.owned(actor, pollId);
      const optionId = readId(body.id, 'option id');
      if (!optionId) throw chatError.input('id is required');
      await optionOf(actor.appId, pollId, optionId);
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
      await core.announce(actor, 'poll.updated', await reload(actor.appId, pollId));
      return { poll_option: await optionResponse(actor.appId, pollId, optionId) };
    },

    async removeOption(actor, pollId, optionId) {
      await core.owned(actor, pollId);
      await optionOf(actor.appId, pollId, optionId);
      const now = deps.clock.now();
      await deps.writes.run(async (trx) => {
        await repo.removeOption(trx, actor.appId, pollId, optionId);
        await repo.update(trx, actor.appId, pollId, { updated_at: now });
      });
      await core.announce(actor, 'poll.updated', await reload(actor.appId, pollId));
      return {};
    },
  };
}
