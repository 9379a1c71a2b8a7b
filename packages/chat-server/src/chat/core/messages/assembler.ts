import type { ReactionRow, ReactionsRepo } from '../reactions/repo.ts';
import { toReactionResponse, type ReactionResponse } from '../reactions/serialize.ts';
import type { ThreadParticipantRow, ThreadsRepo } from '../replies/repo.ts';
import type { UsersService } from '../users/service.ts';
import type { UserResponse } from '../users/serialize.ts';
import { normalizeIso } from '../../../db/clock.ts';
import { parseArray } from '../json.ts';
import { EVERY_MEMBER, type MessageRow, type MessagesRepo } from './repo.ts';
import { toMessageResponse, userOf, type MessageResponse } from './serialize.ts';
import { inWindow } from '../access/visibility.ts';

const LATEST_REACTIONS = 10;

/**
 * Turns message rows into MessageResponses with a fixed number of queries however many messages there are:
 * quoted messages, latest and own reactions, thread participants and every referenced user are loaded in bulk.
 * `viewerId` decides `own_reactions`; pass null for event payloads shared by every watcher.
 */
export interface MessageAssembler {
  assemble(appId: string, rows: MessageRow[], viewerId: string | null): Promise<MessageResponse[]>;
  one(appId: string, row: MessageRow, viewerId: string | null): Promise<MessageResponse>;
  /** A message that was just inserted: no reactions, replies or participants to look up. */
  fresh(appId: string, row: MessageRow): Promise<MessageResponse>;
}

/**
 * Extra top-level fields per message id, for the messages of one batch (`viewerId` null: shared event payloads).
 * `fresh`: the rows are a send being assembled before its commit, so nothing keyed by their ids is stored yet.
 */
export type MessageEnricher = (
  appId: string,
  rows: readonly MessageRow[],
  viewerId: string | null,
  options: { fresh: boolean },
) => Promise<Map<string, Record<string, unknown>>>;

/** What the assembler reads from. */
export interface AssemblerDeps {
  messages: MessagesRepo;
  reactions: ReactionsRepo;
  threads: ThreadsRepo;
  users: UsersService;
  /** Extensions' fields (`ExtensionPoints.messageFields`), read at every assembly. */
  enrichers: readonly MessageEnricher[];
}

/** What a batch of messages embeds, loaded in bulk. */
interface Related {
  /** The quoted row each message embeds, by the quoting message's id. */
  quotedRows: Map<string, MessageRow>;
  latest: Map<string, ReactionRow[]>;
  own: Map<string, ReactionRow[]>;
  participants: Map<string, ThreadParticipantRow[]>;
}

/**
 * The quoted rows each message may embed for `viewerId`: only a quote from the same channel that the viewer can
 * see (access/visibility.ts `inWindow`). A quote hidden from the viewer keeps its `quoted_message_id` but is not embedded, so nothing of it shows.
 * Without a viewer the payload may reach every watcher (events), so the strictest bound of any member applies.
 */
async function embeddableQuotes(
  deps: AssemblerDeps,
  appId: string,
  rows: readonly MessageRow[],
  quotedRows: Map<string, MessageRow>,
  viewerId: string | null,
): Promise<Map<string, MessageRow>> {
  const quoting = rows.filter((r) => r.quoted_message_id && quotedRows.has(r.quoted_message_id));
  if (quoting.length === 0) return new Map();
  const bounds = await deps.messages.historyBounds(
    appId,
    quoting.map((r) => r.cid),
    viewerId ?? EVERY_MEMBER,
  );
  const result = new Map<string, MessageRow>();
  for (const row of quoting) {
    const quoted = quotedRows.get(row.quoted_message_id!)!;
    const window = { viewerId, hiddenThrough: bounds.get(row.cid) ?? null };
    // A shadow-banned author's message stays theirs alone, even quoted by someone who learnt its id.
    if (quoted.cid === row.cid && inWindow(window, quoted)) result.set(row.id, quoted);
  }
  return result;
}

async function loadRelated(
  deps: AssemblerDeps,
  appId: string,
  rows: MessageRow[],
  viewerId: string | null,
): Promise<Related> {
  const ids = rows.map((r) => r.id);
  const quotedIds = rows.map((r) => r.quoted_message_id).filter((id): id is string => !!id);
  const parentIds = rows.filter((r) => r.reply_count > 0).map((r) => r.id);
  const [quotedRows, latest, own, participants] = await Promise.all([
    quotedIds.length
      ? deps.messages
          .getMany(appId, quotedIds)
          .then((found) => embeddableQuotes(deps, appId, rows, found, viewerId))
      : Promise.resolve(new Map<string, MessageRow>()),
    deps.reactions.latestFor(appId, ids, LATEST_REACTIONS),
    viewerId
      ? deps.reactions.ownFor(appId, ids, viewerId)
      : Promise.resolve(new Map<string, ReactionRow[]>()),
    parentIds.length
      ? deps.threads.participants(appId, parentIds)
      : Promise.resolve(new Map<string, ThreadParticipantRow[]>()),
  ]);
  return { quotedRows, latest, own, participants };
}

/** Every user a batch shows: authors, pinners, mentions, reactors, thread participants and the viewer. */
function userIdsOf(rows: MessageRow[], related: Related, viewerId: string | null): Set<string> {
  const userIds = new Set<string>();
  const collect = (row: MessageRow) => {
    userIds.add(row.user_id);
    if (row.pinned_by_id) userIds.add(row.pinned_by_id);
    for (const id of parseArray(row.mentioned_users)) if (typeof id === 'string') userIds.add(id);
  };
  rows.forEach(collect);
  related.quotedRows.forEach(collect);
  for (const list of related.latest.values()) for (const r of list) userIds.add(r.user_id);
  for (const list of related.participants.values()) for (const p of list) userIds.add(p.user_id);
  if (viewerId) userIds.add(viewerId);
  return userIds;
}

function toResponses(
  rows: MessageRow[],
  related: Related,
  users: Map<string, UserResponse>,
): MessageResponse[] {
  const now = normalizeIso(new Date())!;
  const reactionsOf = (list: ReactionRow[] | undefined): ReactionResponse[] =>
    (list ?? []).map((r) => toReactionResponse(r, users.get(r.user_id)));
  return rows.map((row) => {
    const quotedRow = related.quotedRows.get(row.id);
    const quoted = quotedRow
      ? toMessageResponse(quotedRow, { users, latestReactions: [], ownReactions: [], now })
      : undefined;
    const threadParticipants: UserResponse[] | undefined = related.participants
      .get(row.id)
      ?.map((p) => userOf(users, p.user_id));
    return toMessageResponse(row, {
      users,
      now,
      latestReactions: reactionsOf(related.latest.get(row.id)),
      ownReactions: reactionsOf(related.own.get(row.id)),
      ...(quoted ? { quoted } : {}),
      ...(threadParticipants ? { threadParticipants } : {}),
    });
  });
}

/** A message just inserted: no reactions, replies or participants; its quote follows the rule for shared payloads. */
async function freshResponse(
  deps: AssemblerDeps,
  appId: string,
  row: MessageRow,
): Promise<MessageResponse> {
  const found = row.quoted_message_id
    ? await deps.messages.get(appId, row.quoted_message_id)
    : undefined;
  const quotedRows = found
    ? await embeddableQuotes(deps, appId, [row], new Map([[found.id, found]]), null)
    : new Map<string, MessageRow>();
  const userIds = new Set<string>([row.user_id]);
  for (const id of parseArray(row.mentioned_users)) if (typeof id === 'string') userIds.add(id);
  const quotedRow = quotedRows.get(row.id);
  if (quotedRow) userIds.add(quotedRow.user_id);
  const users = await deps.users.responses(appId, userIds);
  const none = { quotedRows, latest: new Map(), own: new Map(), participants: new Map() };
  return toResponses([row], none, users)[0]!;
}

/** What the viewer deleted for themselves reads, for them alone, as a deleted message (the client's own shape). */
async function markDeletedForViewer(
  deps: AssemblerDeps,
  appId: string,
  viewerId: string,
  responses: MessageResponse[],
): Promise<void> {
  const deleted = await deps.messages.deletedForUser(
    appId,
    viewerId,
    responses.map((r) => r.id),
  );
  for (const response of responses) {
    if (!deleted.has(response.id)) continue;
    response.type = 'deleted';
    response.deleted_for_me = true;
  }
}

export function createMessageAssembler(deps: AssemblerDeps): MessageAssembler {
  const { enrichers } = deps;

  async function enrich(
    appId: string,
    rows: readonly MessageRow[],
    responses: MessageResponse[],
    viewerId: string | null,
    fresh = false,
  ): Promise<MessageResponse[]> {
    for (const enricher of enrichers) {
      const extra = await enricher(appId, rows, viewerId, { fresh });
      if (extra.size === 0) continue;
      for (const response of responses) {
        const fields = extra.get(response.id);
        if (fields) Object.assign(response, fields);
      }
    }
    return responses;
  }

  async function assemble(
    appId: string,
    rows: MessageRow[],
    viewerId: string | null,
  ): Promise<MessageResponse[]> {
    if (rows.length === 0) return [];
    const related = await loadRelated(deps, appId, rows, viewerId);
    const users = await deps.users.responses(appId, userIdsOf(rows, related, viewerId));
    const responses = toResponses(rows, related, users);
    if (viewerId) await markDeletedForViewer(deps, appId, viewerId, responses);
    return enrich(appId, rows, responses, viewerId);
  }

  return {
    assemble,
    one: async (appId, row, viewerId) => (await assemble(appId, [row], viewerId))[0]!,
    async fresh(appId, row) {
      const response = await freshResponse(deps, appId, row);
      return (await enrich(appId, [row], [response], null, true))[0]!;
    },
  };
}
