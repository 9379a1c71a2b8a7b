import { createAppService, type AppService } from './core/app/service.ts';
import { createChannelsRepo } from './core/channels/repo.ts';
import { createChannelsService, type ChannelsService } from './core/channels/service.ts';
import { createStateBuilder } from './core/channels/state.ts';
import type { ChatDeps } from './core/deps.ts';
import { createExtensionPoints } from './core/extension-points.ts';
import { createOwnUserBuilder, type OwnUserBuilder } from './core/users/me.ts';
import { blocksOwnUserPart } from './extensions/moderation/own-user.ts';
import { locationsOwnUserPart } from './extensions/locations/own-user.ts';
import { mutesOwnUserPart } from './extensions/mutes/own-user.ts';
import { createDraftsRepo } from './extensions/drafts/repo.ts';
import { createDraftsService, type DraftsService } from './extensions/drafts/service.ts';
import { enrichOnSend } from './extensions/link-preview/enrich-on-send.ts';
import {
  createLinkPreviewService,
  type LinkPreviewService,
} from './extensions/link-preview/service.ts';
import { createEventPublisher, type EventPublisher } from './core/events/publisher.ts';
import { createChannelEventsService, type ChannelEventsService } from './core/events/service.ts';
import { createMessageAssembler } from './core/messages/assembler.ts';
import { createMessagesRepo } from './core/messages/repo.ts';
import { createMessagesService, type MessagesService } from './core/messages/service.ts';
import { createLocationsRepo } from './extensions/locations/repo.ts';
import { createMessageLocations } from './extensions/locations/message-location.ts';
import { createLocationsService, type LocationsService } from './extensions/locations/service.ts';
import { createModerationRepo } from './extensions/moderation/repo.ts';
import { refuseBlockedDirectMessages } from './extensions/moderation/refuse-blocked.ts';
import {
  createModerationService,
  type ModerationService,
} from './extensions/moderation/service.ts';
import { createMutesRepo } from './extensions/mutes/repo.ts';
import { createMutesService, type MutesService } from './extensions/mutes/service.ts';
import { attachPollOnSend } from './extensions/polls/attach-on-send.ts';
import { createPollsCore } from './extensions/polls/core.ts';
import { createPollsRepo } from './extensions/polls/repo.ts';
import { pollMessageFields } from './extensions/polls/message-fields.ts';
import { createPollsService, type PollsService } from './extensions/polls/service.ts';
import { createPollVotesService, type PollVotesService } from './extensions/polls/votes.ts';
import { createReactionsRepo } from './core/reactions/repo.ts';
import { createReactionsService, type ReactionsService } from './core/reactions/service.ts';
import { createReadsRepo } from './core/reads/repo.ts';
import { createRemindersRepo } from './extensions/reminders/repo.ts';
import { reminderMessageFields } from './extensions/reminders/message-fields.ts';
import { createRemindersService, type RemindersService } from './extensions/reminders/service.ts';
import { createReadsService, type ReadsService } from './core/reads/service.ts';
import { createSearchService, type SearchService } from './extensions/search/service.ts';
import { createThreadsRepo } from './core/replies/repo.ts';
import { createThreadsService, type ThreadsService } from './extensions/threads/service.ts';
import { createUploadsService, type UploadsService } from './extensions/uploads/service.ts';
import { createDiskFileStore } from './extensions/uploads/store.ts';
import { createUsersService, type UsersService } from './core/users/service.ts';

/** Every feature service, wired once. Routes receive this object explicitly (no global decorators). */
export interface ChatServices {
  events: EventPublisher;
  /** The signed-in user's own object (`me`), core fields plus every extension's part. */
  me: OwnUserBuilder;
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
  const points = createExtensionPoints();
  const events = createEventPublisher(deps);
  const users = createUsersService({ deps, events });
  const me = createOwnUserBuilder(deps, users, points);
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
    enrichers: points.messageFields,
  });
  const buildStates = createStateBuilder({
    deps,
    repos,
    users,
    assembler,
    enrichers: points.channelStateFields,
  });
  const channels = createChannelsService({ deps, repos, users, events, buildStates });
  const messages = createMessagesService({
    deps,
    repo: repos.messages,
    threads: repos.threads,
    reads: repos.reads,
    channels,
    users,
    assembler,
    events,
    points,
  });
  channels.onSystemMessage((actor, channel, message) =>
    messages.sendSystem(actor, channel, message),
  );
  const app = createAppService(deps, users);
  const uploads = createUploadsService({
    store: createDiskFileStore(deps.config.uploads.dir),
    channels,
    appSettings: app,
    serverMaxBytes: deps.config.uploads.maxBytes,
  });
  const linkPreviews = createLinkPreviewService(deps.config.linkPreview);
  const moderationRepo = createModerationRepo(deps.db);
  const mutesRepo = createMutesRepo(deps.db);
  const locationsRepo = createLocationsRepo(deps.db);
  points.ownUser.push(
    mutesOwnUserPart(mutesRepo, users),
    blocksOwnUserPart(moderationRepo),
    locationsOwnUserPart(locationsRepo),
  );
  points.messageHardDeleted.push(({ appId, authorId, attachments }) =>
    uploads.removeAttachmentFiles(appId, authorId, attachments),
  );
  // Messages removed with a channel's history go through the same point.
  channels.onMessagesHardDeleted(async (appId, authorId, attachments) => {
    for (const listener of points.messageHardDeleted)
      await listener({ appId, authorId, attachments });
  });
  const pollsCore = createPollsCore({
    deps,
    repo: createPollsRepo(deps.db),
    channels,
    users,
    events,
  });
  const messageLocations = createMessageLocations({ deps, repo: locationsRepo });
  // Refusals first, link enrichment last: a refused message must not make the server fetch anything.
  points.beforeMessageStored.push(
    refuseBlockedDirectMessages(moderationRepo),
    messageLocations.beforeStored,
    attachPollOnSend({ deps, polls: pollsCore.repo, messages: repos.messages }),
    enrichOnSend(linkPreviews),
  );
  const drafts = createDraftsService({
    deps,
    repo: createDraftsRepo(deps.db),
    messages: repos.messages,
    channels,
    assembler,
    events,
  });
  points.channelStateFields.push(async (actor, cids) => {
    const found = await drafts.channelDrafts(actor, cids);
    return new Map([...found].map(([cid, draft]) => [cid, { draft }]));
  });
  const remindersRepo = createRemindersRepo(deps.db);
  const reminders = createRemindersService({
    deps,
    repo: remindersRepo,
    messages,
    assembler,
    users,
    events,
  });
  points.messageFields.push(
    pollMessageFields(pollsCore),
    messageLocations.enrich,
    reminderMessageFields(remindersRepo),
  );
  const locations = createLocationsService({ deps, repo: locationsRepo, messages, events });
  return {
    events,
    me,
    reminders,
    locations,
    app,
    users,
    channels,
    messages,
    reactions: createReactionsService({
      deps,
      repo: repos.reactions,
      messages,
      assembler,
      users,
      events,
    }),
    reads: createReadsService({
      deps,
      reads: repos.reads,
      messages: repos.messages,
      channels,
      users,
      events,
    }),
    threads: createThreadsService({
      deps,
      repo: repos.threads,
      messages: repos.messages,
      reads: repos.reads,
      channels,
      assembler,
      users,
      events,
      enrichers: [
        async (actor, threads) => {
          const found = await drafts.threadDrafts(actor, threads);
          return new Map([...found].map(([parentId, draft]) => [parentId, { draft }]));
        },
      ],
    }),
    channelEvents: createChannelEventsService({ deps, channels, users, events }),
    mutes: createMutesService({
      deps,
      repo: mutesRepo,
      users,
      channels,
      events,
      buildMe: me,
    }),
    moderation: createModerationService({ deps, repo: moderationRepo, users, messages }),
    uploads,
    linkPreviews,
    search: createSearchService({ deps, assembler }),
    polls: createPollsService({ deps, core: pollsCore, messages, assembler, events }),
    pollVotes: createPollVotesService(deps, pollsCore, messages, users),
    drafts,
  };
}
