import type { Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import type { UsersService } from '../../core/users/service.ts';
import { block, blockedUserIds, blocks, unblock } from './blocks.ts';
import { flag } from './flag.ts';
import type { ModerationRepo } from './repo.ts';

export interface ModerationService {
  block(actor: Actor, body: JsonObject): Promise<JsonObject>;
  unblock(actor: Actor, body: JsonObject): Promise<JsonObject>;
  blocks(actor: Actor, query: JsonObject): Promise<JsonObject>;
  flag(actor: Actor, body: JsonObject): Promise<JsonObject>;
  /** The ids the user blocked, for `me.blocked_user_ids` (what the client's blockedUsers starts from). */
  blockedUserIds(appId: string, userId: string): Promise<string[]>;
}

/**
 * Blocks and flags as the client drives them: a user blocks and unblocks others and lists whom they blocked, and
 * reports (flags) a message or a user. Flags are stored for moderators; nothing is hidden automatically.
 */
export interface ModerationContext {
  deps: ChatDeps;
  repo: ModerationRepo;
  users: UsersService;
  messages: MessagesService;
  events: EventPublisher;
}

export function createModerationService(context: ModerationContext): ModerationService {
  return {
    block: (actor, body) => block(context, actor, body),
    unblock: (actor, body) => unblock(context, actor, body),
    blocks: (actor, query) => blocks(context, actor, query),
    flag: (actor, body) => flag(context, actor, body),
    blockedUserIds: (appId, userId) => blockedUserIds(context, appId, userId),
  };
}
