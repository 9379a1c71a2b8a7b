import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { inWindow, actorWindow } from '../../core/access/visibility.ts';
import type { ChannelsService, ChannelAccess } from '../../core/channels/service.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessageRow, MessagesRepo } from '../../core/messages/repo.ts';
import type { ReadsRepo } from '../../core/reads/repo.ts';
import type { ThreadRow, ThreadsRepo } from '../../core/replies/repo.ts';
import type { UsersService } from '../../core/users/service.ts';

export interface ThreadOptions {
  replyLimit: number;
  participantLimit: number;
}

/** Per-viewer extras a feature module adds to thread responses (drafts → `draft`), by parent message id. */
export type ThreadEnricher = (
  actor: Actor,
  threads: readonly { cid: string; parentId: string }[],
) => Promise<Map<string, Record<string, unknown>>>;

/** What the threads service is built from; every use case takes it as its first argument. */
export interface ThreadsContext {
  deps: ChatDeps;
  repo: ThreadsRepo;
  messages: MessagesRepo;
  reads: ReadsRepo;
  channels: ChannelsService;
  assembler: MessageAssembler;
  users: UsersService;
  events: EventPublisher;
  enrichers?: readonly ThreadEnricher[];
}

export function intOf(value: unknown, fallback: number, max: number, name: string): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > max)
    throw chatError.input(`${name} must be between 0 and ${max}`);
  return n;
}

/** A thread the actor may read, with their access to its channel and its parent message. */
export async function loadThread(
  ctx: ThreadsContext,
  actor: Actor,
  parentId: string,
): Promise<{ row: ThreadRow; access: ChannelAccess; parent: MessageRow }> {
  const row = await ctx.repo.get(actor.appId, parentId);
  if (!row) throw chatError.notFound(`thread ${parentId} does not exist`);
  const access = await ctx.channels.access(actor, row.cid);
  const window = actorWindow(actor, access);
  if (!window.readable)
    throw chatError.notAllowed('reading this thread is not allowed (missing read-channel)');
  // A thread whose parent is hidden from the viewer (truncation, hide_history, clear_history) does not exist.
  const parent = await ctx.messages.get(actor.appId, parentId);
  if (!parent || !inWindow(window, parent))
    throw chatError.notFound(`thread ${parentId} does not exist`);
  return { row, access, parent };
}

/** `watch: true` makes the caller's own connection watch the threads' channels. */
export async function watchChannels(ctx: ThreadsContext, actor: Actor, cids: string[]) {
  if (cids.length === 0) return;
  await ctx.deps.connections.apply(actor, { op: 'watch', cids: [...new Set(cids)] });
}
