import type { Actor } from '../access/access.ts';
import type { JsonObject } from '../json.ts';
import type { UnreadCountsResponse } from '../wire/types.ts';
import type { ReadsContext } from './context.ts';
import { markDelivered, type DeliveredMessage } from './mark-delivered.ts';
import { markAllRead, markRead } from './mark-read.ts';
import { markUnread } from './mark-unread.ts';
import { unreadCounts, unreadCountsBatch } from './unread-counts.ts';

export type { ReadsContext } from './context.ts';

export interface ReadsService {
  markRead(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ event: object }>;
  markUnread(actor: Actor, typeName: string, id: string, body: JsonObject): Promise<void>;
  markAllRead(actor: Actor, body: JsonObject): Promise<void>;
  /** client.markChannelsDelivered: `{latest_delivered_messages: [{cid, id}]}`. */
  markDelivered(actor: Actor, latest: readonly DeliveredMessage[]): Promise<void>;
  unreadCounts(actor: Actor, userId?: string): Promise<UnreadCountsResponse>;
  unreadCountsBatch(
    actor: Actor,
    userIds: readonly string[],
  ): Promise<{ counts_by_user: Record<string, UnreadCountsResponse> }>;
}

/** Assembles the reads service from its use cases (mark-read.ts, mark-unread.ts, unread-counts.ts). */
export function createReadsService(context: ReadsContext): ReadsService {
  return {
    markRead: (actor, typeName, id, body) => markRead(context, actor, typeName, id, body),
    markUnread: (actor, typeName, id, body) => markUnread(context, actor, typeName, id, body),
    markAllRead: (actor, body) => markAllRead(context, actor, body),
    markDelivered: (actor, latest) => markDelivered(context, actor, latest),
    unreadCounts: (actor, userId) => unreadCounts(context, actor, userId),
    unreadCountsBatch: (actor, userIds) => unreadCountsBatch(context, actor, userIds),
  };
}
