import type {
  BanUserInput,
  BlocklistBehavior,
  ChannelTypeBlocklist,
  ModerationActionInput,
  ModerationBansPage,
  ModerationBlocklists,
  ModerationQueuePage,
  SlowModeChannel,
  SlowModeChannels,
} from '@daohuu/domain';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const BASE = '/api/admin/moderation';

export const moderationKeys = {
  all: ['admin', 'moderation'] as const,
  queue: (status: QueueStatus) => ['admin', 'moderation', 'queue', status] as const,
  bans: ['admin', 'moderation', 'bans'] as const,
  blocklists: ['admin', 'moderation', 'blocklists'] as const,
  slowMode: (cid: string | undefined) => ['admin', 'moderation', 'slow-mode', cid ?? ''] as const,
};

export type QueueStatus = 'pending' | 'reviewed';

/** The queue ten items at a time: each page's `next` cursor asks the chat server for the following ten. */
export function useModerationQueue(status: QueueStatus) {
  return useInfiniteQuery({
    queryKey: moderationKeys.queue(status),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ signal, pageParam }) =>
      api.get<ModerationQueuePage>(`${BASE}/queue`, {
        query: { status, next: pageParam },
        signal,
      }),
    getNextPageParam: (page) => page.next ?? undefined,
  });
}

/** After any moderation change the queue, bans and settings may all differ: refetch what is shown. */
function useInvalidateModeration() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: moderationKeys.all });
}

export function useSubmitModerationAction() {
  const invalidate = useInvalidateModeration();
  return useMutation({
    mutationFn: (input: ModerationActionInput) =>
      api.post<{ ok: true }>(`${BASE}/actions`, { ...input }),
    onSuccess: invalidate,
  });
}

/** Bans in force a page at a time, newest first. */
export function useBans() {
  return useInfiniteQuery({
    queryKey: moderationKeys.bans,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ signal, pageParam }) =>
      api.get<ModerationBansPage>(`${BASE}/bans`, { query: { next: pageParam }, signal }),
    getNextPageParam: (page) => page.next ?? undefined,
  });
}

export function useBanUser() {
  const invalidate = useInvalidateModeration();
  return useMutation({
    mutationFn: (input: BanUserInput) => api.post<{ ok: true }>(`${BASE}/bans`, { ...input }),
    onSuccess: invalidate,
  });
}

export function useUnbanUser() {
  const invalidate = useInvalidateModeration();
  return useMutation({
    mutationFn: ({ userId, shadow }: { userId: string; shadow: boolean }) =>
      api.delete<{ ok: true }>(`${BASE}/bans/${encodeURIComponent(userId)}`, {
        query: shadow ? { shadow: 'true' } : undefined,
      }),
    onSuccess: invalidate,
  });
}

export function useBlocklists() {
  return useQuery({
    queryKey: moderationKeys.blocklists,
    queryFn: ({ signal }) => api.get<ModerationBlocklists>(`${BASE}/blocklists`, { signal }),
  });
}

export function useSaveBlocklist() {
  const invalidate = useInvalidateModeration();
  return useMutation({
    mutationFn: ({ name, words }: { name: string; words: string[] }) =>
      api.put<{ name: string; words: string[] }>(`${BASE}/blocklists/${encodeURIComponent(name)}`, {
        words,
      }),
    onSuccess: invalidate,
  });
}

export function useSetChannelTypeBlocklist() {
  const invalidate = useInvalidateModeration();
  return useMutation({
    mutationFn: ({
      type,
      ...body
    }: {
      type: string;
      blocklist: string | null;
      behavior: BlocklistBehavior;
    }) => api.put<ChannelTypeBlocklist>(`${BASE}/channel-types/${encodeURIComponent(type)}`, body),
    onSuccess: invalidate,
  });
}

export function useSlowMode(cid: string | undefined) {
  return useQuery({
    queryKey: moderationKeys.slowMode(cid),
    queryFn: ({ signal }) =>
      api.get<SlowModeChannels>(`${BASE}/slow-mode`, { query: { cid }, signal }),
  });
}

export function useSetSlowMode() {
  const invalidate = useInvalidateModeration();
  return useMutation({
    mutationFn: (body: { cid: string; cooldown: number }) =>
      api.put<SlowModeChannel>(`${BASE}/slow-mode`, body),
    onSuccess: invalidate,
  });
}
