/** A channel by its chat type and id, as GET /api/chat/config lists the official sect channels. */
export interface ChannelRef {
  type: string;
  id: string;
}

/** A chat query filter (Stream's filter_conditions), as plain data. */
export type ChannelFilter = Record<string, unknown>;

/**
 * Whether `channel` is one of the official sect channels. The type alone says nothing: anyone may create a
 * channel of a public type, so only the ids the server lists make a channel a sect channel.
 */
export function isSectChannel(
  channel: { type: string; id?: string | null | undefined },
  sects: readonly ChannelRef[],
): boolean {
  return sects.some((sect) => sect.type === channel.type && sect.id === channel.id);
}

/**
 * The sect channel an old link names: the sect channels were `livestream` channels before they got the chat server's
 * `sect` type, and links to them (`/chat/livestream/quang-truong`) live on in bookmarks and messages. Null when the
 * link names anything else. The web app redirects such a link; the server writes the sect's messages into its page.
 */
export function movedSectChannel<T extends ChannelRef>(
  target: ChannelRef | null,
  sects: readonly T[],
): T | null {
  if (!target || target.type !== 'livestream') return null;
  return sects.find((channel) => channel.id === target.id && channel.type !== target.type) ?? null;
}

/** The official sect channels as a filter: `type` AND `id: { $in }`, one clause per type. */
export function sectChannelFilter(sects: readonly ChannelRef[]): ChannelFilter {
  const idsByType = new Map<string, string[]>();
  for (const { type, id } of sects) idsByType.set(type, [...(idsByType.get(type) ?? []), id]);
  const clauses = [...idsByType].map(([type, ids]) => ({ type, id: { $in: ids } }));
  if (clauses.length === 1) return clauses[0] as ChannelFilter;
  // No sect channel at all: a clause that matches nothing, rather than one that matches everything.
  if (clauses.length === 0) return { cid: { $in: [''] } };
  return { $or: clauses };
}

/**
 * The channel list's filter: a visitor sees the sect channels only; a cultivator also sees the channels they are a
 * member of (direct messages, groups, and any channel they were added to, shown among the conversations).
 */
export function sidebarChannelFilter(
  userId: string | undefined,
  sects: readonly ChannelRef[],
): ChannelFilter {
  const official = sectChannelFilter(sects);
  return userId === undefined ? official : { $or: [{ members: { $in: [userId] } }, official] };
}
