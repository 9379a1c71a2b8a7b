import type { ChatClientConfig, ChatToken, UserSearchHit, UserSearchResult } from '@daohuu/domain';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export function chatConfigQueryOptions() {
  return queryOptions({
    queryKey: ['chat', 'config'] as const,
    queryFn: ({ signal }) => api.get<ChatClientConfig>('/api/chat/config', { signal }),
    // The deployment's chat settings do not change while the page is open.
    staleTime: Infinity,
  });
}

export function getChatToken(): Promise<ChatToken> {
  return api.get<ChatToken>('/api/chat/token');
}

export async function searchUsers(query: string, signal?: AbortSignal): Promise<UserSearchHit[]> {
  const { users } = await api.get<UserSearchResult>('/api/users/search', {
    query: { q: query },
    signal,
  });
  return users;
}
