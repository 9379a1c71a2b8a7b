import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** A public sect channel every cultivator (and every guest, read-only) can open. */
export interface PublicChannel {
  type: string;
  id: string;
  name: string;
}

/** `GET /api/chat/config`: where the chat lives. A null baseURL means the client's default hosted URL. */
export interface ChatConfig {
  mode: 'embedded' | 'hosted';
  apiKey: string;
  baseURL: string | null;
  publicChannels: PublicChannel[];
}

/** `GET /api/chat/token`: a chat token for the signed-in cultivator (401 when signed out). */
export interface ChatToken {
  token: string;
  userId: string;
  expiresAt: string | number;
}

/** One row of `GET /api/users/search`. */
export interface FoundUser {
  id: string;
  daoHieu: string;
  tuVi: number;
  image: string | null;
}

export function chatConfigQueryOptions() {
  return queryOptions({
    queryKey: ['chat', 'config'] as const,
    queryFn: ({ signal }) => api.get<ChatConfig>('/api/chat/config', { signal }),
    // The deployment's chat settings do not change while the page is open.
    staleTime: Infinity,
  });
}

export function getChatToken(): Promise<ChatToken> {
  return api.get<ChatToken>('/api/chat/token');
}

export async function searchUsers(query: string, signal?: AbortSignal): Promise<FoundUser[]> {
  const { users } = await api.get<{ users: FoundUser[] }>('/api/users/search', {
    query: { q: query },
    signal,
  });
  return users;
}
