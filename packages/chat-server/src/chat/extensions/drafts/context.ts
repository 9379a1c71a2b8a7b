import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import {
  inWindow,
  ownerViewer,
  readableCids,
  viewerWindows,
} from '../../core/access/visibility.ts';
import {
  assertChannelId,
  assertChannelType,
  type ChannelAccess,
  type ChannelsService,
} from '../../core/channels/service.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import { parseObject } from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessageRow, MessagesRepo } from '../../core/messages/repo.ts';
import type { MessageResponse } from '../../core/messages/serialize.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { DraftRow, DraftsRepo } from './repo.ts';
import { toDraftResponse, type DraftResponse } from './serialize.ts';

/** What the drafts service is built from; every use case takes it as its first argument. */
export interface DraftsContext {
  deps: ChatDeps;
  repo: DraftsRepo;
  messages: MessagesRepo;
  channels: ChannelsService;
  assembler: MessageAssembler;
  events: EventPublisher;
  /** The owner's role, for reading their drafts as they would (access/visibility.ts `ownerViewer`). */
  users: Pick<UsersService, 'roleOf'>;
}

/** Whose drafts a call is about: the caller's own, or for server-side calls the given `user_id`. */
export function draftOwner(actor: Actor, given: unknown): string {
  if (actor.isServer) {
    const id = typeof given === 'string' && given ? given : actor.userId;
    if (!id) throw chatError.input('user_id is required for server-side calls');
    return id;
  }
  if (!actor.userId) throw chatError.notAllowed('anonymous users have no drafts');
  return actor.userId;
}

/** The caller's access to the channel a draft route names; drafting there needs reading it. */
export async function draftChannelAccess(
  ctx: DraftsContext,
  actor: Actor,
  typeName: string,
  id: string,
): Promise<ChannelAccess> {
  assertChannelType(typeName);
  assertChannelId(id);
  const access = await ctx.channels.access(actor, `${typeName}:${id}`);
  requirePermission(access.permissions, 'read-channel', `reading channel ${access.channel.cid}`);
  return access;
}

/** The parent and quoted message ids the drafts refer to. */
function relatedIds(rows: DraftRow[]): Set<string> {
  const related = new Set<string>();
  for (const row of rows) {
    if (row.parent_id) related.add(row.parent_id);
    const quoted = parseObject(row.message).quoted_message_id;
    if (typeof quoted === 'string') related.add(quoted);
  }
  return related;
}

/** The owner as the one rule sees them: the caller, or for a server-side call the named user with their role. */
export function draftViewer(ctx: DraftsContext, actor: Actor, userId: string): Promise<Actor> {
  return ownerViewer({ appId: actor.appId, userId, caller: actor }, (appId, id) =>
    ctx.users.roleOf(appId, id),
  );
}

/**
 * Responses for many drafts, with their parent and quoted messages assembled in one batch: only those still in
 * the draft's channel and visible to its owner (a truncation after the draft was saved hides them, and so does
 * losing the channel: removed from a private one, nothing of it is shown).
 */
export async function draftResponses(
  ctx: DraftsContext,
  appId: string,
  userId: string,
  rows: DraftRow[],
): Promise<DraftResponse[]> {
  const related = relatedIds(rows);
  const byId = new Map<string, MessageResponse>();
  const found =
    related.size > 0
      ? await ctx.messages.getMany(appId, [...related])
      : new Map<string, MessageRow>();
  if (found.size > 0) {
    const assembled = await ctx.assembler.assemble(appId, [...found.values()], userId);
    for (const message of assembled) byId.set(message.id, message);
  }
  const windowOf = await viewerWindows(
    ctx.messages,
    appId,
    found.size > 0 ? rows.map((r) => r.cid) : [],
    userId,
  );
  const readable =
    found.size > 0
      ? await readableCids(
          ctx.deps.db,
          await ownerViewer({ appId, userId }, (a, u) => ctx.users.roleOf(a, u)),
          rows.map((r) => r.cid),
          ctx.deps.channelTypes,
        )
      : new Set<string>();
  const visible = (row: DraftRow, id: unknown) => {
    const message = typeof id === 'string' && id ? found.get(id) : undefined;
    if (!message || message.cid !== row.cid || !readable.has(row.cid)) return undefined;
    if (!inWindow(windowOf(row.cid), message)) return undefined;
    return byId.get(message.id);
  };
  return rows.map((row) =>
    toDraftResponse(row, {
      parent: visible(row, row.parent_id),
      quoted: visible(row, parseObject(row.message).quoted_message_id),
    }),
  );
}

/** Tells the owner's connections about a saved or deleted draft. */
export function announceDraft(
  ctx: DraftsContext,
  actor: Actor,
  userId: string,
  type: string,
  draft: DraftResponse,
): void {
  const at = draft.channel_cid.indexOf(':');
  ctx.events.toUser(actor.appId, userId, {
    type,
    cid: draft.channel_cid,
    channel_type: draft.channel_cid.slice(0, at),
    channel_id: draft.channel_cid.slice(at + 1),
    draft,
    created_at: ctx.deps.clock.now(),
  });
}
