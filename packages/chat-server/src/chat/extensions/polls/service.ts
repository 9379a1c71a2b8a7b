import type { Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import type { PollsCore } from './core.ts';
import { createPollOptionsService, type PollOptionsService } from './options.ts';
import { createPoll, getPoll } from './poll-create.ts';
import { removePoll } from './poll-remove.ts';
import { partialUpdatePoll, updatePoll } from './poll-update.ts';
import type { PollResponse } from './serialize.ts';

export interface PollsService extends PollOptionsService {
  create(actor: Actor, body: JsonObject): Promise<{ poll: PollResponse }>;
  get(actor: Actor, pollId: string): Promise<{ poll: PollResponse }>;
  update(actor: Actor, body: JsonObject): Promise<{ poll: PollResponse }>;
  partialUpdate(actor: Actor, pollId: string, body: JsonObject): Promise<{ poll: PollResponse }>;
  remove(actor: Actor, pollId: string): Promise<Record<string, never>>;
}

/** What poll CRUD depends on; the use cases in poll-create.ts, poll-update.ts and poll-remove.ts take it first. */
export interface PollsContext {
  deps: ChatDeps;
  core: PollsCore;
  messages: MessagesService;
  assembler: MessageAssembler;
  events: EventPublisher;
}

export function createPollsService(context: PollsContext): PollsService {
  const { deps, core } = context;
  return {
    create: (actor, body) => createPoll(context, actor, body),
    get: (actor, pollId) => getPoll(context, actor, pollId),
    update: (actor, body) => updatePoll(context, actor, body),
    partialUpdate: (actor, pollId, body) => partialUpdatePoll(context, actor, pollId, body),
    remove: (actor, pollId) => removePoll(context, actor, pollId),
    ...createPollOptionsService({ deps, core }),
  };
}
