import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChannelsService } from '../channels/service.ts';
import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { MessagesRepo } from '../messages/repo.ts';
import { unreadSummary } from '../users/me.ts';
import type { UsersService } from '../users/service.ts';
import type { ReadsRepo } from './repo.ts';

/** What the reads service needs from the rest of the core. */
export interface ReadsContext {
  deps: ChatDeps;
  reads: ReadsRepo;
  messages: MessagesRepo;
  channels: ChannelsService;
  users: UsersService;
  events: EventPublisher;
}

/** The receiver's own unread totals, as Stream puts them on read events. */
export interface UnreadCounters {
  total_unread_count: number;
  unread_count: number;
  unread_channels: number;
  unread_threads: number;
}

export async function counters(
  { reads }: ReadsContext,
  appId: string,
  userId: string,
): Promise<UnreadCounters> {
  const summary = await unreadSummary(reads, appId, userId);
  return {
    total_unread_count: summary.total,
    unread_count: summary.total,
    unread_channels: summary.channels,
    unread_threads: summary.threads,
  };
}

/** The reader: read state belongs to a user, so even server-side calls must name one. */
export function userOf(actor: Actor): string {
  if (!actor.userId) throw chatError.input('user_id is required');
  return actor.userId;
}

/** The thread a mark applies to (null: the channel itself). */
export function threadOf(body: { thread_id?: unknown }): string | null {
  return typeof body.thread_id === 'string' && body.thread_id ? body.thread_id : null;
}
