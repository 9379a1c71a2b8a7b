import { createBansService, type BansService } from './core/bans/service.ts';
import { createAppService, type AppService } from './core/app/service.ts';
import { createChannelsRepo } from './core/channels/repo.ts';
import {
  createChannelTypesService,
  type ChannelTypesService,
} from './core/channel-types/service.ts';
import { createChannelsService, type ChannelsService } from './core/channels/service.ts';
import { createStateBuilder } from './core/channels/state.ts';
import type { ChatDeps } from './core/deps.ts';
import { createExtensionPoints, type ExtensionPoints } from './core/extension-points.ts';
import { createOwnUserBuilder, type OwnUserBuilder } from './core/users/me.ts';
import { blocksOwnUserPart } from './extensions/moderation/own-user.ts';
import { locationsOwnUserPart } from './extensions/locations/own-user.ts';
import { mutesOwnUserPart } from './extensions/mutes/own-user.ts';
import { forgetOwnRows } from './core/users/forget-own-rows.ts';
import { forgetUserMutes } from './extensions/mutes/forget-user.ts';
import { forgetUserInModeration } from './extensions/moderation/forget-user.ts';
import { createDraftsRepo } from './extensions/drafts/repo.ts';
import { createDraftsService, type DraftsService } from './extensions/drafts/service.ts';
import { enrichOnSend } from './extensions/link-preview/enrich-on-send.ts';
import {
  createLinkPreviewService,
  type LinkPreviewService,
} from './extensions/link-preview/service.ts';
import { createEventPublisher, type EventPublisher } from './core/events/publisher.ts';
import { createChannelEventsService, type ChannelEventsService } from './core/events/service.ts';
import { createMessageAssembler, type MessageAssembler } from './core/messages/assembler.ts';
import { createMessagesRepo } from './core/messages/repo.ts';
import { createMessagesService, type MessagesService } from './core/messages/service.ts';
import { createLocationsRepo, type LocationsRepo } from './extensions/locations/repo.ts';
import {
  createMessageLocations,
  type MessageLocations,
} from './extensions/locations/message-location.ts';
import { createLocationsService, type LocationsService } from './extensions/locations/service.ts';
import { createModerationRepo, type ModerationRepo } from './extensions/moderation/repo.ts';
import { refuseBlockedDirectMessages } from './extensions/moderation/refuse-blocked.ts';
import { blocklistChecks } from './extensions/moderation/blocklist-check.ts';
import { createBlocklistsService } from './extensions/moderation/blocklists.ts';
import { createBlocklistsRepo } from './extensions/moderation/blocklists-repo.ts';
import { createReviewRepo, type ReviewRepo } from './extensions/moderation/review-repo.ts';
import {
  blockedChannelFields,
  blockedConversationHidden,
  blockedEventAudience,
  blockedAuthorNotUnread,
  refuseBlockedWrites,
} from './extensions/moderation/blocks-rules.ts';
import {
  createModerationService,
  type ModerationService,
} from './extensions/moderation/service.ts';
import { createMutesRepo, type MutesRepo } from './extensions/mutes/repo.ts';
import { createMutesService, type MutesService } from './extensions/mutes/service.ts';
import { createNotificationsRepo } from './extensions/notifications/repo.ts';
import {
  createNotificationsService,
  type NotificationsService,
} from './extensions/notifications/service.ts';
import { attachPollOnSend } from './extensions/polls/attach-on-send.ts';
import { pollCopier } from './extensions/polls/copy.ts';
import { createPollsCore, type PollsCore } from './extensions/polls/core.ts';
import { createPollsRepo } from './extensions/polls/repo.ts';
import { pollMessageFields } from './extensions/polls/message-fields.ts';
import { createPollsService, type PollsService } from './extensions/polls/service.ts';
import { createPollVotesService, type PollVotesService } from './extensions/polls/votes.ts';
import { createReactionsRepo } from './core/reactions/repo.ts';
import { createReactionsService, type ReactionsService } from './core/reactions/service.ts';
import { createReadsRepo } from './core/reads/repo.ts';
import { createRemindersRepo, type RemindersRepo } from './extensions/reminders/repo.ts';
import { reminderMessageFields } from './extensions/reminders/message-fields.ts';
import { createRemindersService, type RemindersService } from './extensions/reminders/service.ts';
import { createReadsService, type ReadsService } from './core/reads/service.ts';
import { createSearchService, type SearchService } from './extensions/search/service.ts';
import { createThreadsRepo } from './core/replies/repo.ts';
import { createThreadsService, type ThreadsService } from './extensions/threads/service.ts';
import { createUploadsService, type UploadsService } from './extensions/uploads/service.ts';
import { createUploadStorage } from './extensions/uploads/storage.ts';
import { createUsersService, type UsersService } from './core/users/service.ts';
import { markPendingOnSend } from './extensions/pending-messages/on-send.ts';
import { createPendingMessagesRepo } from './extensions/pending-messages/repo.ts';
import {
  createPendingMessagesService,
  type PendingMessagesService,
} from './extensions/pending-messages/service.ts';
import { createTasksService, type TasksService } from './core/tasks/service.ts';
import { createUserGroupsRepo, type UserGroupsRepo } from './extensions/user-groups/repo.ts';
import {
  createUserGroupsService,
  type UserGroupsService,
} from './extensions/user-groups/service.ts';
import { createGroupMentions, groupMentionedUsers } from './extensions/user-groups/mentions.ts';
import { createPredefinedFiltersRepo } from './extensions/predefined-filters/repo.ts';
import {
  createPredefinedFiltersService,
  type PredefinedFiltersService,
} from './extensions/predefined-filters/service.ts';
import {
  createCampaignsExtension,
  type CampaignsExtension,
} from './extensions/campaigns/service.ts';

/** Every feature service, wired once. Routes receive this object explicitly (no global decorators). */
export interface ChatServices {
  events: EventPublisher;
  /** The signed-in user's own object (`me`), core fields plus every extension's part. */
  me: OwnUserBuilder;
  app: AppService;
  users: UsersService;
  channels: ChannelsService;
  channelTypes: ChannelTypesService;
  messages: MessagesService;
  reactions: ReactionsService;
  reads: ReadsService;
  threads: ThreadsService;
  channelEvents: ChannelEventsService;
  /** Bans (the BanPort the moderation queue acts through, plus the ban routes' queries). */
  bans: BansService;
  tasks: TasksService;
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
  /** Segments and campaigns, with the background delivery driver. */
  campaigns: CampaignsExtension;
  notifications: NotificationsService;
  userGroups: UserGroupsService;
  predefinedFilters: PredefinedFiltersService;
  /** Messages held until the server commits them (`mark_messages_pending`, `pending`). */
  pendingMessages: PendingMessagesService;
}

export function createChatServices(deps: ChatDeps): ChatServices {
  const points = createExtensionPoints();
  const core = createCore(deps, points);
  const extensions = installExtensions(core, points);
  const {
    events,
    me,
    app,
    users,
    channels,
    channelTypes,
    messages,
    reactions,
    reads,
    channelEvents,
    bans,
    tasks,
  } = core;
  return {
    events,
    me,
    app,
    users,
    channels,
    channelTypes,
    messages,
    reactions,
    reads,
    channelEvents,
    bans,
    tasks,
    ...extensions,
  };
}

type CoreServiceName =
  | 'events'
  | 'me'
  | 'app'
  | 'users'
  | 'channels'
  | 'channelTypes'
  | 'messages'
  | 'reactions'
  | 'reads'
  | 'channelEvents'
  | 'bans'
  | 'tasks';

/** The core services, plus the repositories and the assembler extensions build on. */
interface Core extends Pick<ChatServices, CoreServiceName> {
  deps: ChatDeps;
  repos: ReturnType<typeof createCoreRepos>;
  assembler: MessageAssembler;
}

function createCoreRepos(deps: ChatDeps, points: ExtensionPoints) {
  const { db, channelTypes: types } = deps;
  return {
    channels: createChannelsRepo(db),
    messages: createMessagesRepo(db),
    reactions: createReactionsRepo(db),
    reads: createReadsRepo(db, types, points.unreadExcluded),
    threads: createThreadsRepo(db),
  };
}

/** The core knows the extension points only as lists it reads; what fills them is installExtensions' business. */
function createCore(deps: ChatDeps, points: ExtensionPoints): Core {
  const events = createEventPublisher(deps, points.eventAudience);
  const users = createUsersService({ deps, events });
  const repos = createCoreRepos(deps, points);
  const me = createOwnUserBuilder({ deps, users, reads: repos.reads, points });
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
    channelFields: points.channelFields,
  });
  const channels = createChannelsService({
    deps,
    repos,
    users,
    events,
    buildStates,
    hiddenConditions: points.channelHidden,
    activity: points.activity,
    queryResolvers: points.channelQuery,
  });
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
  const reactions = createReactionsService({
    deps,
    repo: repos.reactions,
    messages,
    assembler,
    users,
    events,
    beforeWrite: points.beforeChannelWrite,
    activity: points.activity,
  });
  const reads = createReadsService({
    deps,
    reads: repos.reads,
    messages: repos.messages,
    channels,
    users,
    events,
  });
  const channelEvents = createChannelEventsService({ deps, channels, users, events });
  const app = createAppService({ deps, users });
  const bans = createBansService({ deps, users, channels, events });
  const tasks = createTasksService({
    deps,
    events,
    users,
    channels,
    messages,
    reactions,
    userHardDeleted: points.userHardDeleted,
  });
  return {
    deps,
    events,
    me,
    app,
    users,
    channels,
    channelTypes: createChannelTypesService(deps),
    messages,
    reactions,
    reads,
    channelEvents,
    tasks,
    repos,
    assembler,
    bans,
  };
}

type ExtensionServices = Omit<ChatServices, CoreServiceName>;

/** What the extensions built that plugs into the extension points, beside their services. */
interface ExtensionParts {
  services: ExtensionServices;
  repos: {
    moderation: ModerationRepo;
    review: ReviewRepo;
    mutes: MutesRepo;
    locations: LocationsRepo;
    reminders: RemindersRepo;
    userGroups: UserGroupsRepo;
  };
  pollsCore: PollsCore;
  messageLocations: MessageLocations;
}

function installExtensions(core: Core, points: ExtensionPoints): ExtensionServices {
  const parts = createExtensionParts(core, points);
  plugIntoExtensionPoints(core, points, parts);
  return parts.services;
}

/**
 * Every extension's contribution to the core, each point's order written here once. The order is observable: own
 * user parts and message fields are spread in it, and checks before a message is stored run in it.
 */
function plugIntoExtensionPoints(core: Core, points: ExtensionPoints, parts: ExtensionParts): void {
  const { repos, pollsCore, messageLocations, services } = parts;
  const groupMentions = createGroupMentions(repos.userGroups);
  points.ownUser.push(
    mutesOwnUserPart(repos.mutes, core.users),
    blocksOwnUserPart(repos.moderation),
    locationsOwnUserPart(repos.locations),
  );
  points.messageHardDeleted.push(({ appId, authorId, attachments }) =>
    services.uploads.removeAttachmentFiles(appId, authorId, attachments),
  );
  points.userHardDeleted.push(
    forgetUserMutes(core.deps.writes),
    forgetUserInModeration(core.deps.writes),
    // Poll counts are read from the votes, so a vote removed here leaves every poll's totals right.
    forgetOwnRows(core.deps.writes, ['drafts', 'reminders', 'poll_votes', 'notifications']),
  );
  // Messages removed with a channel's history go through the same point.
  core.channels.onMessagesHardDeleted(async (appId, authorId, attachments) => {
    for (const listener of points.messageHardDeleted)
      await listener({ appId, authorId, attachments });
  });
  const blocklist = blocklistChecks(services.moderation.blocklists, repos.review, () =>
    core.deps.clock.now(),
  );
  points.beforeMessageTextChanged.push(blocklist.onEdit);
  // Refusals first, link enrichment last: a refused message must not make the server fetch anything.
  points.beforeMessageStored.push(
    refuseBlockedDirectMessages(repos.moderation),
    blocklist.onSend,
    markPendingOnSend(),
    messageLocations.beforeStored,
    attachPollOnSend({ deps: core.deps, polls: pollsCore.repo, messages: core.repos.messages }),
    groupMentions.beforeStored,
    enrichOnSend(services.linkPreviews),
  );
  points.channelHidden.push(blockedConversationHidden());
  points.channelFields.push(blockedChannelFields(core.deps.db));
  points.eventAudience.push(blockedEventAudience(core.deps.db));
  points.unreadExcluded.push(blockedAuthorNotUnread());
  points.activity.push(services.notifications.onActivity);
  points.beforeChannelWrite.push(refuseBlockedWrites(core.deps.db));
  points.channelStateFields.push(async (actor, cids) => {
    const found = await services.drafts.channelDrafts(actor, cids);
    return new Map([...found].map(([cid, draft]) => [cid, { draft }]));
  });
  // Every channel a user reads carries their pending messages, an empty list clearing what the client held.
  points.channelStateFields.push(async (actor, cids) => {
    if (!actor.userId) return new Map();
    const found = await services.pendingMessages.channelPendingMessages(actor, cids);
    return new Map(cids.map((cid) => [cid, { pending_messages: found.get(cid) ?? [] }]));
  });
  points.messageFields.push(
    pollMessageFields(pollsCore),
    messageLocations.enrich,
    reminderMessageFields(repos.reminders),
    groupMentions.fields,
  );
  points.mentionedUsers.push(groupMentionedUsers(repos.userGroups));
  points.channelQuery.push(services.predefinedFilters.resolveChannelQuery);
  points.pollCopiers.push(pollCopier(core.deps, pollsCore.repo));
}

function createExtensionParts(core: Core, points: ExtensionPoints): ExtensionParts {
  const { deps, users, channels, messages, assembler, events } = core;
  const repos = {
    moderation: createModerationRepo(deps.db),
    review: createReviewRepo(deps.db),
    mutes: createMutesRepo(deps.db),
    locations: createLocationsRepo(deps.db),
    reminders: createRemindersRepo(deps.db),
    userGroups: createUserGroupsRepo(deps.db),
  };
  const pollsCore = createPollsCore({
    deps,
    repo: createPollsRepo(deps.db),
    channels,
    users,
    events,
  });
  const drafts = createDraftsService({
    deps,
    repo: createDraftsRepo(deps.db),
    messages: core.repos.messages,
    channels,
    assembler,
    events,
    users,
  });
  const services: ExtensionServices = {
    threads: createThreads(core, drafts),
    mutes: createMutesService({
      deps,
      repo: repos.mutes,
      users,
      channels,
      events,
      buildMe: core.me,
    }),
    moderation: createModerationService({
      deps,
      repo: repos.moderation,
      review: repos.review,
      blocklists: createBlocklistsService(deps, createBlocklistsRepo(deps.db)),
      users,
      messages,
      events,
      bans: core.bans,
    }),
    reminders: createRemindersService({
      deps,
      repo: repos.reminders,
      messages,
      assembler,
      users,
      events,
      activity: points.activity,
    }),
    locations: createLocationsService({ deps, repo: repos.locations, messages, events }),
    uploads: createUploadsService({
      ...createUploadStorage(deps),
      channels,
      appSettings: core.app,
      serverMaxBytes: deps.config.uploads.maxBytes,
    }),
    linkPreviews: createLinkPreviewService(deps.config.linkPreview),
    search: createSearchService({ deps, assembler }),
    polls: createPollsService({ deps, core: pollsCore, messages, assembler, events }),
    pollVotes: createPollVotesService({ deps, core: pollsCore, messages, users }),
    drafts,
    campaigns: createCampaignsExtension({
      deps,
      users,
      channels,
      messages,
      pollCopiers: points.pollCopiers,
    }),
    notifications: createNotificationsService({
      deps,
      repo: createNotificationsRepo(deps.db),
      users,
      events,
      mentions: points.mentionedUsers,
    }),
    userGroups: createUserGroupsService({ deps, repo: repos.userGroups, users }),
    predefinedFilters: createPredefinedFiltersService({
      deps,
      repo: createPredefinedFiltersRepo(deps.db),
    }),
    pendingMessages: createPendingMessagesService({
      deps,
      repo: createPendingMessagesRepo(deps.db),
      messagesRepo: core.repos.messages,
      messages,
      assembler,
    }),
  };
  const messageLocations = createMessageLocations({ deps, repo: repos.locations });
  return { services, repos, pollsCore, messageLocations };
}

/** The Threads API, whose threads carry the viewer's draft reply like channels carry theirs. */
function createThreads(core: Core, drafts: DraftsService): ThreadsService {
  return createThreadsService({
    deps: core.deps,
    repo: core.repos.threads,
    messages: core.repos.messages,
    reads: core.repos.reads,
    channels: core.channels,
    assembler: core.assembler,
    users: core.users,
    events: core.events,
    enrichers: [
      async (actor, threads) => {
        const found = await drafts.threadDrafts(actor, threads);
        return new Map([...found].map(([parentId, draft]) => [parentId, { draft }]));
      },
    ],
  });
}
