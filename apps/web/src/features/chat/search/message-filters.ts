import type { MessageFilters } from 'stream-chat';

/** The filters a cultivator can add to a message search. */
export interface MessageSearchFilters {
  /** Only the open channel ("Trong kênh này"). */
  channelCid: string | null;
  /** Only messages this cultivator wrote ("Từ đạo hữu"). */
  fromUserId: string | null;
  /** Only messages carrying a file, image, video or audio ("Có tệp"). */
  withFiles: boolean;
  /** Only pinned messages ("Đã ghim"). */
  pinned: boolean;
}

export const NO_MESSAGE_FILTERS: MessageSearchFilters = {
  channelCid: null,
  fromUserId: null,
  withFiles: false,
  pinned: false,
};

/** Attachment types that count as a file; link previews and shared locations do not. */
export const FILE_ATTACHMENT_TYPES = ['file', 'image', 'video', 'audio', 'voiceRecording'];

/** Channel messages and thread replies; system and error messages are never results. */
const SEARCHED_MESSAGE_TYPES = ['regular', 'reply'];

/** The `message_filter_conditions` of GET /search for a query and the chosen filters. */
export function messageFilterConditions(
  query: string,
  filters: MessageSearchFilters,
): MessageFilters {
  const conditions: Record<string, unknown> = {
    text: query.trim(),
    type: { $in: SEARCHED_MESSAGE_TYPES },
  };
  if (filters.channelCid) conditions.cid = filters.channelCid;
  if (filters.fromUserId) conditions['user.id'] = filters.fromUserId;
  if (filters.withFiles) conditions['attachments.type'] = { $in: FILE_ATTACHMENT_TYPES };
  if (filters.pinned) conditions.pinned = true;
  return conditions as MessageFilters;
}

/** How many filters are on, for the filter button's badge. */
export function activeFilterCount(filters: MessageSearchFilters): number {
  return [filters.channelCid, filters.fromUserId, filters.withFiles, filters.pinned].filter(Boolean)
    .length;
}
