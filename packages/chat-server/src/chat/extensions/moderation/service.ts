import { chatError } from '../../../errors.ts';
import { WindowCounter } from '../../../http/rate-limit.ts';
import type { Actor } from '../../core/access/access.ts';
import type { BanPort } from '../../core/bans/port.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import type { UsersService } from '../../core/users/service.ts';
import { submitAction } from './actions.ts';
import { block, blockedUserIds, blocks, unblock } from './blocks.ts';
import type { BlocklistsService } from './blocklists.ts';
import { flag, flagEntity, unflag } from './flag.ts';
import { queryMessageFlags } from './message-flags.ts';
import type { ModerationRepo } from './repo.ts';
import { queryReviewQueue } from './review-queue.ts';
import type { ReviewRepo } from './review-repo.ts';

export interface ModerationService {
  block(actor: Actor, body: JsonObject): Promise<JsonObject>;
  unblock(actor: Actor, body: JsonObject): Promise<JsonObject>;
  blocks(actor: Actor, query: JsonObject): Promise<JsonObject>;
  flag(actor: Actor, body: JsonObject): Promise<JsonObject>;
  flagEntity(actor: Actor, body: JsonObject): Promise<JsonObject>;
  unflag(actor: Actor, body: JsonObject): Promise<JsonObject>;
  queryMessageFlags(actor: Actor, payload: JsonObject): Promise<JsonObject>;
  queryReviewQueue(actor: Actor, body: JsonObject): Promise<JsonObject>;
  submitAction(actor: Actor, body: JsonObject): Promise<JsonObject>;
  blocklists: BlocklistsService;
  /** The ids the user blocked, for `me.blocked_user_ids` (what the client's blockedUsers starts from). */
  blockedUserIds(appId: string, userId: string): Promise<string[]>;
}

/** What the moderation use cases are built from (the composition root fills `limitFlags`' place). */
export interface ModerationDeps {
  deps: ChatDeps;
  repo: ModerationRepo;
  review: ReviewRepo;
  blocklists: BlocklistsService;
  users: UsersService;
  messages: MessagesService;
  events: EventPublisher;
  bans: BanPort;
}

/**
 * Blocks, flags and the review queue as the client drives them: a user blocks and unblocks others and reports
 * (flags) a message or a user; moderators page through the queue of flagged messages and users and act on them.
 * Nothing is hidden by a flag alone.
 */
export interface ModerationContext extends ModerationDeps {
  /** Refuses a reporter's flag beyond the per-minute allowance (each flag notifies every moderator). */
  limitFlags(appId: string, userId: string): void;
}

/** Flags per reporter per minute: generous for people, tight for a script flooding moderators. */
const FLAGS_PER_MINUTE = 30;

export function createModerationService(deps: ModerationDeps): ModerationService {
  const flagWindows = new WindowCounter(60_000, 10_000);
  const context: ModerationContext = {
    ...deps,
    limitFlags(appId, userId) {
      if (!flagWindows.hit(`${appId}\u0000${userId}`, FLAGS_PER_MINUTE).allowed)
        throw chatError.rateLimited(`too many flags: at most ${FLAGS_PER_MINUTE} a minute`);
    },
  };
  return {
    block: (actor, body) => block(context, actor, body),
    unblock: (actor, body) => unblock(context, actor, body),
    blocks: (actor, query) => blocks(context, actor, query),
    flag: (actor, body) => flag(context, actor, body),
    flagEntity: (actor, body) => flagEntity(context, actor, body),
    unflag: (actor, body) => unflag(context, actor, body),
    queryMessageFlags: (actor, payload) => queryMessageFlags(context, actor, payload),
    queryReviewQueue: (actor, body) => queryReviewQueue(context, actor, body),
    submitAction: (actor, body) => submitAction(context, actor, body),
    blocklists: deps.blocklists,
    blockedUserIds: (appId, userId) => blockedUserIds(context, appId, userId),
  };
}
