import type { Actor } from '../../core/access/access.ts';
import type { ChannelsService } from '../../core/channels/service.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import type { JsonObject } from '../../core/json.ts';
import type { OwnUserBuilder } from '../../core/users/me.ts';
import type { UsersService } from '../../core/users/service.ts';
import { muteChannel, unmuteChannel } from './channel-mutes.ts';
import type { MutesRepo } from './repo.ts';
import { muteUser, unmuteUser } from './user-mutes.ts';

export interface MutesService {
  muteUser(actor: Actor, body: JsonObject): Promise<JsonObject>;
  unmuteUser(actor: Actor, body: JsonObject): Promise<JsonObject>;
  muteChannel(actor: Actor, body: JsonObject): Promise<JsonObject>;
  unmuteChannel(actor: Actor, body: JsonObject): Promise<JsonObject>;
}

/**
 * Mutes change client state only through `notification.mutes_updated` / `notification.channel_mutes_updated`
 * carrying the whole `me`, so every change ends with that event to all of the user's connections.
 */
export interface MutesContext {
  deps: ChatDeps;
  repo: MutesRepo;
  users: UsersService;
  channels: ChannelsService;
  events: EventPublisher;
  buildMe: OwnUserBuilder;
}

export function createMutesService(context: MutesContext): MutesService {
  return {
    muteUser: (actor, body) => muteUser(context, actor, body),
    unmuteUser: (actor, body) => unmuteUser(context, actor, body),
    muteChannel: (actor, body) => muteChannel(context, actor, body),
    unmuteChannel: (actor, body) => unmuteChannel(context, actor, body),
  };
}
