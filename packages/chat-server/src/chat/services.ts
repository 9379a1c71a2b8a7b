import { createAppService, type AppService } from './app/service.ts';
import { createChannelsRepo } from './channels/repo.ts';
import { createChannelsService, type ChannelsService } from './channels/service.ts';
import { createStateBuilder, type ChannelStateEnricher } from './channels/state.ts';
import type { ChatDeps } from './deps.ts';
import { createDraftsRepo } from './drafts/repo.ts';
import { createDraftsService, type DraftsService } from './drafts/service.ts';
import { enrichOnSend } from './link-preview/enrich-on-send.ts';
import { createLinkPreviewService, type LinkPreviewService } from './link-preview/service.ts';
import { createEventPublisher, type EventPublisher } from './events/publisher.ts';
import { createChannelEventsService, type ChannelEventsService } from './events/service.ts';
import { createMessageAssembler } from './messages/assembler.ts';
import { createMessagesRepo } from './messages/repo.ts';
import { createMessagesService, type MessagesService } from './messages/service.ts';
import { createLocationsRepo } from './locations/repo.ts';
import { createLocationsService, type LocationsService } from './locations/service.ts';
import { createModerationRepo } from './moderation/repo.ts';
import { refuseBlockedDirectMessages } from './moderation/refuse-blocked.ts';
import { createModerationService, type ModerationService } from './moderation/service.ts';
import { createMutesRepo } from './mutes/repo.ts';
import { createMutesService, type MutesService } from './mutes/service.ts';
import { createPollsCore } from './polls/core.ts';
import { createPollsRepo } from './polls/repo.ts';
import { createPollsService, type PollsService } from './polls/service.ts';
import { createPollVotesService, type PollVotesService } from './polls/votes.ts';
import { createReactionsRepo } from './reactions/repo.ts';
import { createReactionsService, type ReactionsService } from './reactions/service.ts';
import { createReadsRepo } from './reads/repo.ts';
import { createRemindersRepo } from './reminders/repo.ts';
import { createRemindersService, type RemindersService } from './reminders/service.ts';
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
  moderation: ModerationService;
  reminders: RemindersService;
  locations: LocationsService;
  uploads: UploadsService;
  linkPreviews: LinkPreviewService;
  search: SearchService;
  polls: PollsService;
  pollVotes: PollVotesService;
  drafts: DraftsService;
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
  const stateEnrichers: ChannelStateEnricher[] = [];
  const buildStates = createStateBuilder(deps, repos, users, assembler, stateEnrichers);
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
  const app = createAppService(deps, users);
  const uploads = createUploadsService(
    createDiskFileStore(deps.config.uploads.dir),
    channels,
    app,
    deps.config.uploads.maxBytes,
  );
  const linkPreviews = createLinkPreviewService(deps.config.linkPreview);
  const moderationRepo = createModerationRepo(deps.db);
  // Refuse before enriching links: a refused message must not make the server fetch anything.
  messages.addSendHook(refuseBlockedDirectMessages(moderationRepo));
  messages.addSendHook(enrichOnSend(linkPreviews));
  const removeFiles = (appId: string, authorId: string, attachments: unknown[]) =>
    uploads.removeAttachmentFiles(appId, authorId, attachments);
  messages.onHardDeleted(removeFiles);
  channels.onMessagesHardDeleted(removeFiles);
  const pollsCore = createPollsCore(deps, createPollsRepo(deps.db), channels, users, events);
  const drafts = createDraftsService(
    deps,
    createDraftsRepo(deps.db),
    repos.messages,
    channels,
    assembler,
    users,
    events,
  );
  stateEnrichers.push(async (actor, cids) => {
    const found = await drafts.channelDrafts(actor, cids);
    return new Map([...found].map(([cid, draft]) => [cid, { draft }]));
  });
  const reminders = createRemindersService(
    deps,
    createRemindersRepo(deps.db),
    messages,
    assembler,
    users,
    events,
  );
  const locations = createLocationsService(
    deps,
    createLocationsRepo(deps.db),
    messages,
    assembler,
    events,
  );
  return {
    events,
    reminders,
    locations,
    app,
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
      [
        async (actor, threads) => {
          const found = await drafts.threadDrafts(actor, threads);
          return new Map([...found].map(([parentId, draft]) => [parentId, { draft }]));
        },
      ],
    ),
    channelEvents: createChannelEventsService(deps, channels, users, events),
    mutes: createMutesService(deps, createMutesRepo(deps.db), users, channels, events),
    moderation: createModerationService(deps, moderationRepo, users, messages),
    uploads,
    linkPreviews,
    search: createSearchService(deps, assembler),
    polls: createPollsService(deps, pollsCore, messages, assembler, events),
    pollVotes: createPollVotesService(deps, pollsCore, messages, users),
    drafts,
  };
}
