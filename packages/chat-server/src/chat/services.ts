import { createAppService, type AppService } from './app/service.ts';
import { createChannelsRepo } from './channels/repo.ts';
import { createChannelsService, type ChannelsService } from './channels/service.ts';
import { createStateBuilder } from './channels/state.ts';
import type { ChatDeps } from './deps.ts';
import { createEventPublisher, type EventPublisher } from './events/publisher.ts';
import { createChannelEventsService, type ChannelEventsService } from './events/service.ts';
import { createMessageAssembler } from './messages/assembler.ts';
import { createMessagesRepo } from './messages/repo.ts';
import { createMessagesService, type MessagesService } from './messages/service.ts';
import { createMutesRepo } from './mutes/repo.ts';
import { createMutesService, type MutesService } from './mutes/service.ts';
import { createReactionsRepo } from './reactions/repo.ts';
import { createReactionsService, type ReactionsService } from './reactions/service.ts';
import { createReadsRepo } from './reads/repo.ts';
import { createReadsService, type ReadsService } from './reads/service.ts';
import { createSearchService, type SearchService } from './search/service.ts';
import { createThreadsRepo } from './threads/repo.ts';
import { createThreadsService, type ThreadsService } from './threads/service.ts';
import { createUploadsService, type UploadsService } from './uploads/service.ts';
import { createDiskFileStore } from './uploads/store.ts';
import { createUsersService, type UsersService } from './users/service.ts';

/** Every feature service, wired once. Routes receive this object explicitly (no global decorators). */
export interface ChatServices {
  events: EventPublisher;
  app: AppService;
  users: UsersService;
  channels: ChannelsService;
  messages: MessagesService;
  reactions: ReactionsService;
  reads: ReadsService;
  threads: ThreadsService;
  channelEvents: ChannelEventsService;
  mutes: MutesService;
  uploads: UploadsService;
  search: SearchService;
}

export function createChatServices(deps: ChatDeps): ChatServices {
  const events = createEventPublisher(deps);
  const users = createUsersService(deps, events);
  const repos = {
    channels: createChannelsRepo(deps.db),
    messages: createMessagesRepo(deps.db),
    reactions: createReactionsRepo(deps.db),
    reads: createReadsRepo(deps.db),
    threads: createThreadsRepo(deps.db),
  };
  const assembler = createMessageAssembler({
    messages: repos.messages,
    reactions: repos.reactions,
    threads: repos.threads,
    users,
  });
  const buildStates = createStateBuilder(deps, repos, users, assembler);
  const channels = createChannelsService(deps, repos, users, events, buildStates);
  const messages = createMessagesService(
    deps,
    repos.messages,
    repos.threads,
    repos.reads,
    channels,
    users,
    assembler,
    events,
  );
  channels.onSystemMessage((actor, channel, message) =>
    messages.sendSystem(actor, channel, message),
  );
  return {
    events,
    app: createAppService(users),
    users,
    channels,
    messages,
    reactions: createReactionsService(deps, repos.reactions, messages, assembler, users, events),
    reads: createReadsService(deps, repos.reads, repos.messages, channels, users, events),
    threads: createThreadsService(
      deps,
      repos.threads,
      repos.messages,
      repos.reads,
      channels,
      assembler,
      users,
      events,
    ),
    channelEvents: createChannelEventsService(deps, channels, users, events),
    mutes: createMutesService(deps, createMutesRepo(deps.db), users, channels, events),
    uploads: createUploadsService(createDiskFileStore(deps.config.uploads.dir), channels),
    search: createSearchService(deps, assembler),
  };
}
