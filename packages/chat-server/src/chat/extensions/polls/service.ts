import type { Insertable } from 'kysely';
import type { PollsTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { toWatchersWhoSee } from '../../core/access/visibility.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import { channelActivityEvent, channelKeysOf } from '../../core/wire/events.ts';
import type { PollEventType, PollsCore } from './core.ts';
import {
  checkVoteRules,
  POLL_RESERVED,
  readCustom,
  readId,
  readOptions,
  readPollFields,
  type PollFields,
} from './input.ts';
import {
  createPollOptionsService,
  insertOptions,
  reloadPoll,
  type PollOptionsService,
} from './options.ts';
import type { PollRow } from './repo.ts';
import type { PollResponse } from './serialize.ts';

export interface PollsService extends PollOptionsService {
  create(actor: Actor, body: JsonObject): Promise<{ poll: PollResponse }>;
  get(actor: Actor, pollId: string): Promise<{ poll: PollResponse }>;
  update(actor: Actor, body: JsonObject): Promise<{ poll: PollResponse }>;
  partialUpdate(actor: Actor, pollId: string, body: JsonObject): Promise<{ poll: PollResponse }>;
  remove(actor: Actor, pollId: string): Promise<Record<string, never>>;
}

export interface PollsContext {
  deps: ChatDeps;
  core: PollsCore;
  messages: MessagesService;
  assembler: MessageAssembler;
  events: EventPublisher;
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

export function createPollsService(context: PollsContext): PollsService {
  const { deps, core, messages, events } = context;
  const { repo } = core;

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
        await insertOptions(repo, trx, actor.appId, id, options, 0, now);
      });
      const poll = await reloadPoll(deps, repo, actor.appId, id);
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
            await insertOptions(repo, trx, actor.appId, pollId, [option], index, now);
          }
        }
      });
      const poll = await reloadPoll(deps, repo, actor.appId, pollId);
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
      applyUnset(columns, custom, unset as string[]);
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
      const poll = await reloadPoll(deps, repo, actor.appId, pollId);
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
          const event = channelActivityEvent(
            'message.updated',
            channelKeysOf(poll.cid),
            deps.clock.now(),
            { message, user: message.user },
          );
          const channel = { cid: poll.cid };
          await toWatchersWhoSee(deps.db, events, actor.appId, channel, message.created_at, event);
        }
      }
      return {};
    },

    ...createPollOptionsService({ deps, core }),
  };
}
