import { sidebarChannelFilter, type ChannelRef } from '@daohuu/domain';
import {
  BaseSearchSource,
  SearchController,
  UserSearchSource,
  type Channel,
  type ChannelFilters,
  type MessageResponse,
  type SearchQueryOptions,
  type SearchSourceOptions,
  type StreamChat,
} from 'stream-chat';
import {
  messageFilterConditions,
  NO_MESSAGE_FILTERS,
  type MessageSearchFilters,
} from './message-filters';

/** docs/product-rules.md: search waits 300 ms after the last keystroke and pages by 10. */
export const SEARCH_SOURCE_OPTIONS: SearchSourceOptions = { debounceMs: 300, pageSize: 10 };

/**
 * Where a cultivator searches: the channels of their channel list, i.e. those they belong to and the official sect
 * channels they read without joining. (The SDK's own sources search member channels only.)
 */
function searchedChannels(client: StreamChat, sects: readonly ChannelRef[]): ChannelFilters {
  return sidebarChannelFilter(client.userID, sects) as ChannelFilters;
}

/** Messages by text, with the filters of the search screen. */
export class ChatMessageSearchSource extends BaseSearchSource<MessageResponse> {
  readonly type = 'messages';
  filters: MessageSearchFilters = NO_MESSAGE_FILTERS;

  constructor(
    private readonly client: StreamChat,
    private readonly sects: readonly ChannelRef[],
  ) {
    super(SEARCH_SOURCE_OPTIONS);
  }

  protected async query(searchQuery: string, queryOptions: SearchQueryOptions = {}) {
    if (!this.client.userID || this.next === null) return { items: [] };
    const { results, next } = await this.client.search(
      searchedChannels(this.client, this.sects),
      messageFilterConditions(searchQuery, this.filters),
      { limit: this.pageSize, next: this.next, sort: [{ created_at: -1 }] },
      queryOptions,
    );
    const items = results.map(({ message }) => message);
    if (!queryOptions.signal?.aborted) await this.loadChannelsOf(items, queryOptions);
    return { items, next };
  }

  /** A result shows its channel's name, so channels the client does not know yet are fetched (without watching). */
  private async loadChannelsOf(items: MessageResponse[], queryOptions: SearchQueryOptions) {
    const unknown = new Set<string>();
    for (const message of items) {
      if (message.cid && !this.client.activeChannels[message.cid]) unknown.add(message.cid);
    }
    if (unknown.size === 0) return;
    await this.client.queryChannels(
      { cid: { $in: [...unknown] } },
      [{ last_message_at: -1 }],
      { watch: false, state: true, presence: false, limit: unknown.size },
      queryOptions,
    );
  }

  protected filterQueryResults(items: MessageResponse[]) {
    return items;
  }
}

/** Channels of the channel list whose name starts a word with the query. */
export class ChatChannelSearchSource extends BaseSearchSource<Channel> {
  readonly type = 'channels';

  constructor(
    private readonly client: StreamChat,
    private readonly sects: readonly ChannelRef[],
  ) {
    super(SEARCH_SOURCE_OPTIONS);
  }

  protected async query(searchQuery: string, queryOptions: SearchQueryOptions = {}) {
    const filters = {
      ...searchedChannels(this.client, this.sects),
      name: { $autocomplete: searchQuery.trim() },
    } as ChannelFilters;
    const items = await this.client.queryChannels(
      filters,
      [{ last_message_at: -1 }],
      { watch: false, state: true, presence: false, limit: this.pageSize, offset: this.offset },
      queryOptions,
    );
    return { items };
  }

  protected filterQueryResults(items: Channel[]) {
    return items;
  }
}

/**
 * The three sources of the search screen; messages first, so it is the one active by default, and only one is
 * active at a time (the controller's keepSingleActiveSource).
 */
export function createChatSearchController(
  client: StreamChat,
  sects: readonly ChannelRef[],
): SearchController {
  return new SearchController({
    config: { keepSingleActiveSource: true },
    sources: [
      new ChatMessageSearchSource(client, sects),
      new ChatChannelSearchSource(client, sects),
      new UserSearchSource(client, SEARCH_SOURCE_OPTIONS),
    ],
  });
}
