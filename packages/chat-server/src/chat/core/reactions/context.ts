import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { ActivityListener, BeforeChannelWrite } from '../extension-points.ts';
import type { MessageAssembler } from '../messages/assembler.ts';
import type { MessagesService } from '../messages/service.ts';
import type { UsersService } from '../users/service.ts';
import type { ReactionsRepo } from './repo.ts';

/** What the reactions service needs from the rest of the core. */
export interface ReactionsContext {
  deps: ChatDeps;
  repo: ReactionsRepo;
  messages: MessagesService;
  assembler: MessageAssembler;
  users: UsersService;
  events: EventPublisher;
  /** Extensions' checks before a reaction is stored (`ExtensionPoints.beforeChannelWrite`). */
  beforeWrite?: readonly BeforeChannelWrite[];
  /** Told of each stored reaction (`ExtensionPoints.activity`). */
  activity?: readonly ActivityListener[];
}
