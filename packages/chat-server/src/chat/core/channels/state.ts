import { historyBound, inWindow, type HistoryWindow } from '../access/visibility.ts';
import type { ChannelType, ChannelTypeLookup, ClientCapability } from '../channel-types.ts';
import { channelTypeOf } from '../channel-types/overrides.ts';
import {
  banHolds,
  ownCapabilities,
  ownerFacts,
  permissionsFor,
  type Actor,
} from '../access/access.ts';
import type { ChatDeps } from '../deps.ts';
import { JsonText } from '../json.ts';
import type { MessageAssembler } from '../messages/assembler.ts';
import type { MessagePage } from '../messages/pagination.ts';
import type { MessageRow, MessagesRepo } from '../messages/repo.ts';
import type { MessageResponse } from '../messages/serialize.ts';
import type { ReadWithUnread, ReadsRepo } from '../reads/repo.ts';
import type { UserStanding, UsersService } from '../users/service.ts';
import type { UserResponse } from '../users/serialize.ts';
import type { ChannelRow, ChannelsRepo, MemberRow } from './repo.ts';
import { createChannelStateCache, type ChannelStateCache } from './state-cache.ts';
import { createSharedStateCache, type SharedPart, type SharedStateCache } from './shared-state.ts';
import {
  channelUserIds,
  toChannelResponse,
  toMemberResponse,
  toReadResponse,
  type ChannelResponse,
  type MemberResponse,
  type ReadResponse,
} from './serialize.ts';

/** ChannelAPIResponse: what channel.query and every queryChannels item return. */
export interface ChannelStateResponse {
  channel: ChannelResponse;
  messages: MessageResponse[];
  pinned_messages: MessageResponse[];
  members: MemberResponse[];
  membership: MemberResponse | null;
  read: ReadResponse[];
  watchers: UserResponse[];
  watcher_count: number;
  threads: unknown[];
  hidden: boolean;
  pending_messages: unknown[];
}

/**
 * Per-viewer extras a feature module adds to channel states (drafts → `draft`), by cid, loaded in bulk. `known`
 * holds the rows the state build already read, so an extension can tell which channels cannot concern it.
 */
export type ChannelStateEnricher = (
  actor: Actor,
  cids: readonly string[],
  known: EnricherKnown,
) => Promise<Map<string, Record<string, unknown>>>;

/** What a state build already knows of the channels it enriches. */
export interface EnricherKnown {
  channels: ReadonlyMap<string, ChannelRow>;
  /** The viewer's memberships among them. */
  memberships: ReadonlyMap<string, MemberRow>;
}

export interface StateOptions {
  /** Whether to include messages and reads (state:false returns them empty, but still the members). */
  state: boolean;
  messageLimit: number;
  /** For a single channel query: the exact page the client asked for. */
  messagePage?: MessagePage;
  memberLimit: number;
  memberOffset: number;
  /** 0 when the request named no `watchers` page: Stream then answers with no watchers, only `watcher_count`. */
  watcherLimit: number;
  watcherOffset: number;
}

/**
 * What the caller's access check already read about the viewer of a single channel (`ChannelAccess`): a watch
 * would otherwise read the membership and the app-wide standing a second time.
 */
export interface KnownViewer {
  membership: MemberRow | undefined;
  standing: UserStanding | undefined;
}

/** The channel's type with its own settings over it. */
export function requireType(types: ChannelTypeLookup, row: ChannelRow): ChannelType {
  const type = channelTypeOf(types, row);
  if (!type) throw new Error(`unknown channel type ${row.type}`);
  return type;
}

/** The rows one state build reads, by cid. */
interface LoadedRows {
  memberships: Map<string, MemberRow>;
  members: Map<string, MemberRow[]>;
  reads: Map<string, ReadWithUnread[]>;
  messages: Map<string, MessageRow[]>;
  pinned: Map<string, MessageRow[]>;
}

/** What turns loaded rows into responses: assembled messages, watchers, users and the extensions' extras. */
interface Resolved {
  messagesById: Map<string, MessageResponse>;
  watcherIds: Map<string, string[]>;
  /** Distinct watchers on every node, per cid. */
  watcherCounts: Map<string, number>;
  usersById: Map<string, UserResponse>;
  extras: Map<string, Record<string, unknown>>[];
  /** The viewer's app-wide ban, which takes writing rights in every channel. */
  standing: { banned: boolean } | undefined;
  channelExtras: Map<string, Record<string, unknown>>[];
}

/** What building states reads from. */
export interface StateContext {
  deps: ChatDeps;
  repos: { channels: ChannelsRepo; messages: MessagesRepo; reads: ReadsRepo };
  users: UsersService;
  assembler: MessageAssembler;
  /** Extensions' fields (`ExtensionPoints.channelStateFields`). */
  enrichers: readonly ChannelStateEnricher[];
  /** Extensions' fields of the channel object (`ExtensionPoints.channelFields`). */
  channelFields?: readonly ChannelStateEnricher[];
}

/** The state context with this node's shared rows and texts of recently queried channels. */
interface CachingContext extends StateContext {
  cache: ChannelStateCache;
  shared: SharedStateCache;
}

/**
 * Builds channel states in bulk: the queries made do not grow with the number of channels (except pinned
 * messages), so a queryChannels page of 30 channels costs the same handful of round trips as one channel.
 */
export function createStateBuilder(context: StateContext) {
  const ctx: CachingContext = {
    ...context,
    cache: createChannelStateCache(),
    shared: createSharedStateCache(),
  };
  async function buildStates(
    actor: Actor,
    rows: ChannelRow[],
    options: StateOptions,
    known?: KnownViewer,
  ): Promise<ChannelStateResponse[]> {
    if (rows.length === 0) return [];
    const viewer = rows.length === 1 ? known : undefined;
    const loaded = await load(ctx, actor, rows, options, viewer);
    const resolved = await resolve(ctx, actor, rows, loaded, options, viewer);
    return rows.map((row) => toState(ctx, actor, row, loaded, resolved));
  }
  return Object.assign(buildStates, {
    /**
     * One channel's state as serialised text, its viewer-neutral part shared with other viewers (shared-state.ts);
     * null when the viewer has something of their own in it (then buildStates answers). Equal to what buildStates
     * gives the same viewer, but for the order of the fields.
     */
    answer: (actor: Actor, row: ChannelRow, options: StateOptions, known: KnownViewer) =>
      sharedAnswer(ctx, actor, row, options, known),
  });
}

/** The fields the shared part of an answer holds: no extension's per-viewer field may name one of them. */
const SHARED_FIELDS = new Set([
  'channel',
  'members',
  'membership',
  'read',
  'watchers',
  'threads',
  'hidden',
]);

async function sharedAnswer(
  ctx: CachingContext,
  actor: Actor,
  row: ChannelRow,
  options: StateOptions,
  known: KnownViewer,
): Promise<JsonText | null> {
  const page = options.messagePage;
  // A member has their membership and their own read in the state; the server sees every message.
  if (actor.isServer || known.membership || !options.state || options.watcherLimit > 0) return null;
  if (!page || !isLatestPage(page)) return null;
  const stamp = ctx.deps.hub.channelStamp(actor.appId, row.cid);
  if (stamp === undefined) return null;
  const { appId } = actor;
  const { cid } = row;
  const memberships = new Map<string, MemberRow>();
  const already = { channels: new Map([[cid, row]]), memberships };
  const [channelExtras, extras] = await Promise.all([
    Promise.all((ctx.channelFields ?? []).map((enrich) => enrich(actor, [cid], already))),
    Promise.all(ctx.enrichers.map((enrich) => enrich(actor, [cid], already))),
  ]);
  // Fields of the viewer's own on the channel object (a block hiding it) would make it theirs alone.
  if (channelExtras.some((extra) => Object.keys(extra.get(cid) ?? {}).length > 0)) return null;
  const own = Object.assign({}, ...extras.map((extra) => extra.get(cid))) as Record<
    string,
    unknown
  >;
  if (Object.keys(own).some((key) => SHARED_FIELDS.has(key))) return null;

  const type = requireType(ctx.deps.channelTypes, row);
  const capabilities = capabilitiesOf(ctx, actor, row, type, undefined, known.standing);
  const key = `${options.memberLimit}:${options.memberOffset}:${capabilities.join(',')}`;
  const origin = { channel: row, type, stamp };
  const build = () => buildSharedPart(ctx, appId, row, type, options, capabilities);
  let shared = await ctx.shared.part(origin, key, build);
  if (!(await sameOnline(ctx, appId, shared))) {
    ctx.shared.drop(row);
    shared = await ctx.shared.part(origin, key, build);
  }

  const [messages, pinned] = await Promise.all([
    loadMessages(ctx, appId, [row], memberships, options, actor.userId),
    loadPinned(ctx, appId, [row], memberships, actor.userId),
  ]);
  const messageRows = messages.get(cid) ?? [];
  const pinnedRows = pinned.get(cid) ?? [];
  const [assembled, counts] = await Promise.all([
    ctx.assembler.assemble(appId, dedupe([...messageRows, ...pinnedRows]), actor.userId),
    ctx.deps.presence.watcherCounts(appId, [cid]),
  ]);
  const byId = new Map(assembled.map((m) => [m.id, m]));
  const personal = {
    messages: messageRows.map((m) => byId.get(m.id)!),
    pinned_messages: pinnedRows.map((m) => byId.get(m.id)!),
    watcher_count: counts.get(cid) ?? 0,
    pending_messages: [],
    ...own,
  };
  return new JsonText(`{${shared.text},${JSON.stringify(personal).slice(1)}`);
}

/** The channel object, first member page and read states of a channel, as every viewer without a membership sees them. */
async function buildSharedPart(
  ctx: CachingContext,
  appId: string,
  row: ChannelRow,
  type: ChannelType,
  options: StateOptions,
  capabilities: ClientCapability[],
): Promise<SharedPart> {
  const [members, reads] = await loadMembersAndReads(ctx, appId, [row], options);
  const memberRows = members.get(row.cid) ?? [];
  const readRows = reads.get(row.cid) ?? [];
  const none = new Map<string, never>();
  const loaded = { memberships: none, members, reads, messages: none, pinned: none };
  const userIds = [...userIdsOf([row], loaded, none)];
  // Read before the users: a change in between leaves the part marked older than it is, never newer.
  const online =
    userIds.length > 0 ? await ctx.deps.presence.onlineAmong(appId, userIds) : new Set<string>();
  const users = await ctx.users.responses(appId, userIds);
  const fields = {
    channel: toChannelResponse(row, type, users, { ownCapabilities: capabilities, hidden: false }),
    members: memberRows.map((m) => toMemberResponse(m, users)),
    membership: null,
    read: readRows.map((r) => toReadResponse(r, users)),
    watchers: [],
    threads: [],
    hidden: false,
  };
  return { text: JSON.stringify(fields).slice(1, -1), userIds, online };
}

/** Whether the users a shared part shows are online exactly as they were when it was built. */
async function sameOnline(ctx: StateContext, appId: string, part: SharedPart): Promise<boolean> {
  if (part.userIds.length === 0) return true;
  const online = await ctx.deps.presence.onlineAmong(appId, part.userIds);
  return online.size === part.online.size && [...online].every((id) => part.online.has(id));
}

async function loadMembersAndReads(
  ctx: CachingContext,
  appId: string,
  rows: ChannelRow[],
  options: StateOptions,
) {
  const cids = rows.map((r) => r.cid);
  const { memberLimit, memberOffset } = options;
  const load = () => ctx.repos.channels.membersOf(appId, cids, memberLimit, memberOffset);
  // One channel's member page is the same for every viewer: shared per channel version.
  const members =
    rows.length === 1
      ? ctx.cache
          .members(
            rows[0]!,
            memberLimit,
            memberOffset,
            async () => (await load()).get(cids[0]!) ?? [],
          )
          .then((page) => new Map([[cids[0]!, [...page]]]))
      : load();
  // Stream answers with the members even with state:false (channel.create() sends it): the client seeds its member
  // list from them.
  if (!options.state) return [await members, new Map<string, ReadWithUnread[]>()] as const;
  // Read states are members' only (reads/repo.ts): a channel nobody belongs to, a livestream most watchers merely
  // watch, has none to look up.
  if (rows.every((row) => row.member_count === 0))
    return [await members, new Map(cids.map((cid) => [cid, [] as ReadWithUnread[]]))] as const;
  return Promise.all([members, ctx.repos.reads.forChannels(appId, cids)]);
}

/** A page that asks for the newest messages, with no cursor: the one every watch starts with. */
function isLatestPage(page: MessagePage): boolean {
  return (
    page.offset === 0 &&
    Object.entries(page).every(([key, value]) => key === 'limit' || key === 'offset' || !value)
  );
}

/** The shared rows when every one of them is in the viewer's window (then they are the viewer's page), else null. */
function fitFor<T extends MessageRow>(rows: readonly T[], window: HistoryWindow): T[] | null {
  return rows.every((row) => inWindow(window, row)) ? [...rows] : null;
}

/** The message page of each channel: the exact page asked for when one channel is queried, else the latest. */
async function loadMessages(
  ctx: CachingContext,
  appId: string,
  rows: ChannelRow[],
  memberships: Map<string, MemberRow>,
  options: StateOptions,
  viewer: string | null,
): Promise<Map<string, MessageRow[]>> {
  if (options.messagePage && rows.length === 1) {
    const row = rows[0]!;
    const bound = historyBound(row, memberships.get(row.cid));
    const scope = { appId, cid: row.cid, parentId: null };
    if (isLatestPage(options.messagePage)) {
      // Everyone's newest messages, loaded with nothing hidden; they are this viewer's page when all are visible.
      const { limit } = options.messagePage;
      const everyone = await ctx.cache.latestMessages(row, limit, () =>
        ctx.repos.messages.page(
          { ...scope, visibleAfter: null, viewer: undefined },
          { limit, offset: 0 },
        ),
      );
      const fit = fitFor(everyone, { viewerId: viewer, hiddenThrough: bound });
      if (fit) return new Map([[row.cid, fit]]);
    }
    const page = await ctx.repos.messages.page(
      { ...scope, visibleAfter: bound, viewer },
      options.messagePage,
    );
    return new Map([[row.cid, page]]);
  }
  const bounds = new Map<string, string>();
  for (const row of rows) {
    const bound = historyBound(row, memberships.get(row.cid));
    if (bound) bounds.set(row.cid, bound);
  }
  const cids = rows.map((r) => r.cid);
  return ctx.repos.messages.latestPerChannel(appId, cids, options.messageLimit, bounds, viewer);
}

const PINNED_LIMIT = 10;

async function loadPinned(
  ctx: CachingContext,
  appId: string,
  rows: ChannelRow[],
  memberships: Map<string, MemberRow>,
  viewer: string | null,
): Promise<Map<string, MessageRow[]>> {
  const now = ctx.deps.clock.now();
  const pinnedByCid = new Map<string, MessageRow[]>();
  const load = (row: ChannelRow, bound: string | null, who: string | null | undefined) =>
    ctx.repos.messages.pinned(appId, row.cid, PINNED_LIMIT, now, bound, who);
  await Promise.all(
    rows.map(async (row) => {
      const bound = historyBound(row, memberships.get(row.cid));
      if (rows.length === 1) {
        // Pins only ever lapse with time, so the shared list is still the viewer's while none of it has lapsed.
        const everyone = await ctx.cache.pinned(row, () => load(row, null, undefined));
        const current = everyone.every((m) => !m.pin_expires || m.pin_expires > now);
        const fit = current ? fitFor(everyone, { viewerId: viewer, hiddenThrough: bound }) : null;
        if (fit) return pinnedByCid.set(row.cid, fit);
      }
      return pinnedByCid.set(row.cid, await load(row, bound, viewer));
    }),
  );
  return pinnedByCid;
}

async function load(
  ctx: CachingContext,
  actor: Actor,
  rows: ChannelRow[],
  options: StateOptions,
  known: KnownViewer | undefined,
): Promise<LoadedRows> {
  const appId = actor.appId;
  const cids = rows.map((r) => r.cid);
  const memberships = await membershipsFor(ctx, actor, cids, known);
  const [members, reads] = await loadMembersAndReads(ctx, appId, rows, options);
  let messages = new Map<string, MessageRow[]>();
  let pinned = new Map<string, MessageRow[]>();
  if (options.state) {
    messages = await loadMessages(ctx, appId, rows, memberships, options, actor.userId);
    pinned = await loadPinned(ctx, appId, rows, memberships, actor.userId);
  }
  return { memberships, members, reads, messages, pinned };
}

async function membershipsFor(
  ctx: StateContext,
  actor: Actor,
  cids: string[],
  known: KnownViewer | undefined,
): Promise<Map<string, MemberRow>> {
  if (known) {
    const { membership } = known;
    return membership ? new Map([[membership.cid, membership]]) : new Map();
  }
  if (!actor.userId) return new Map();
  return ctx.repos.channels.membershipsOf(actor.appId, cids, actor.userId);
}

/** One watcher page per channel, or none when the request asked for none (no presence lookup then). */
async function watcherPages(
  ctx: StateContext,
  actor: Actor,
  cids: string[],
  options: StateOptions,
): Promise<Map<string, string[]>> {
  if (options.watcherLimit <= 0) return new Map();
  const { presence } = ctx.deps;
  const pages = await Promise.all(
    cids.map((cid) =>
      presence.watcherUserIds(actor.appId, cid, options.watcherOffset, options.watcherLimit),
    ),
  );
  return new Map(cids.map((cid, i) => [cid, pages[i]!]));
}

async function resolve(
  ctx: StateContext,
  actor: Actor,
  rows: ChannelRow[],
  loaded: LoadedRows,
  options: StateOptions,
  known: KnownViewer | undefined,
): Promise<Resolved> {
  const allMessages = [...loaded.messages.values(), ...loaded.pinned.values()].flat();
  const assembled = await ctx.assembler.assemble(actor.appId, dedupe(allMessages), actor.userId);
  const messagesById = new Map(assembled.map((m) => [m.id, m]));
  const cids = rows.map((r) => r.cid);
  const [watcherIds, watcherCounts] = await Promise.all([
    watcherPages(ctx, actor, cids, options),
    ctx.deps.presence.watcherCounts(actor.appId, cids),
  ]);
  const usersById = await ctx.users.responses(actor.appId, userIdsOf(rows, loaded, watcherIds));
  const already = {
    channels: new Map(rows.map((row) => [row.cid, row])),
    memberships: loaded.memberships,
  };
  const extras = await Promise.all(ctx.enrichers.map((enrich) => enrich(actor, cids, already)));
  const standing = known
    ? known.standing
    : actor.userId && !actor.isServer
      ? await ctx.users.standingOf(actor.appId, actor.userId)
      : undefined;
  const channelExtras = await Promise.all(
    (ctx.channelFields ?? []).map((enrich) => enrich(actor, cids, already)),
  );
  return {
    messagesById,
    watcherIds,
    watcherCounts,
    usersById,
    extras,
    standing,
    channelExtras,
  };
}

/** The viewer's own capabilities in a channel, from its type, their membership (if any) and app-wide standing. */
function capabilitiesOf(
  ctx: StateContext,
  actor: Actor,
  row: ChannelRow,
  type: ChannelType,
  membership: MemberRow | undefined,
  standing: { banned: boolean } | undefined,
): ClientCapability[] {
  const facts = membership
    ? {
        channelRole: membership.channel_role,
        banned: banHolds(membership.banned, membership.ban_expires, ctx.deps.clock.now()),
      }
    : null;
  const permissions = permissionsFor(
    type,
    actor,
    ownerFacts(actor, row.created_by_id, facts),
    standing,
  );
  return ownCapabilities(permissions, type.config);
}

function toState(
  ctx: StateContext,
  actor: Actor,
  row: ChannelRow,
  loaded: LoadedRows,
  resolved: Resolved,
): ChannelStateResponse {
  const { messagesById, usersById } = resolved;
  const type = requireType(ctx.deps.channelTypes, row);
  const membership = loaded.memberships.get(row.cid);
  const capabilities = capabilitiesOf(ctx, actor, row, type, membership, resolved.standing);
  const channelExtra = Object.assign(
    {},
    ...resolved.channelExtras.map((extra) => extra.get(row.cid)),
  ) as Record<string, unknown>;
  const hidden = membership?.hidden === 1 || channelExtra.hidden === true;
  return {
    channel: {
      ...toChannelResponse(row, type, usersById, {
        ownCapabilities: capabilities,
        hidden,
      }),
      ...channelExtra,
    },
    messages: (loaded.messages.get(row.cid) ?? []).map((m) => messagesById.get(m.id)!),
    pinned_messages: (loaded.pinned.get(row.cid) ?? []).map((m) => messagesById.get(m.id)!),
    members: (loaded.members.get(row.cid) ?? []).map((m) => toMemberResponse(m, usersById)),
    membership: membership ? toMemberResponse(membership, usersById) : null,
    read: (loaded.reads.get(row.cid) ?? []).map((r) => toReadResponse(r, usersById)),
    watchers: (resolved.watcherIds.get(row.cid) ?? [])
      .map((id) => usersById.get(id)!)
      .filter(Boolean),
    watcher_count: resolved.watcherCounts.get(row.cid) ?? 0,
    threads: [],
    hidden,
    pending_messages: [],
    ...Object.assign({}, ...resolved.extras.map((extra) => extra.get(row.cid))),
  };
}

/** Everyone a batch of states names: creators, members, the viewer's memberships, readers and watchers. */
function userIdsOf(
  rows: ChannelRow[],
  loaded: LoadedRows,
  watcherIds: Map<string, string[]>,
): Set<string> {
  const userIds = new Set<string>();
  for (const row of rows) for (const id of channelUserIds(row)) userIds.add(id);
  for (const list of loaded.members.values()) for (const m of list) userIds.add(m.user_id);
  for (const m of loaded.memberships.values()) userIds.add(m.user_id);
  for (const list of loaded.reads.values()) for (const r of list) userIds.add(r.user_id);
  for (const list of watcherIds.values()) for (const id of list) userIds.add(id);
  return userIds;
}

function dedupe(rows: MessageRow[]): MessageRow[] {
  const seen = new Map<string, MessageRow>();
  for (const row of rows) seen.set(row.id, row);
  return [...seen.values()];
}

export type StateBuilder = ReturnType<typeof createStateBuilder>;
