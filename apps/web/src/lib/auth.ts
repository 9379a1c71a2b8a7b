import type { Profile } from '@daohuu/domain';
import { hashKey, queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import * as React from 'react';
import { ApiError, api } from './api-client';

export const meQueryKey = ['me'] as const;
const meQueryHash = hashKey(meQueryKey);

/** The profile, or null when nobody is signed in (the server answers 401). */
export async function getMe(signal?: AbortSignal): Promise<Profile | null> {
  try {
    return await api.get<Profile>('/api/me', { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function meQueryOptions() {
  return queryOptions({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 30_000,
    // Read without an observer (useMe below), the entry would otherwise be collected five minutes after each fetch.
    gcTime: Infinity,
  });
}

/** Who is signed in, as the screens read it. */
export type MeState = {
  /** The Profile, null when signed out, undefined while loading. */
  data: Profile | null | undefined;
  isPending: boolean;
  refetch: () => Promise<void>;
} & ({ isError: true; error: Error } | { isError: false; error: null });

/** Fetches `me` again now; a failure stays in the cache's state for the readers, as a `useQuery` refetch leaves it. */
async function refetchMe(queryClient: QueryClient): Promise<void> {
  await queryClient.fetchQuery({ ...meQueryOptions(), staleTime: 0 }).catch(() => undefined);
}

/** How many mounted useMe readers each client has: what `useQuery`'s observers would count as active. */
const readers = new WeakMap<QueryClient, number>();

/**
 * After a sign-in or a profile change: when a screen shows who is signed in, fetch it again and wait for the answer;
 * with no reader, only mark the cached answer stale. This is what `invalidateQueries` does for `useQuery` readers.
 */
export async function refreshMe(queryClient: QueryClient): Promise<Profile | null | undefined> {
  if ((readers.get(queryClient) ?? 0) > 0) {
    // fetchQuery, not refetchQueries: a disabled `useQuery` reader (the login dialog's) would make that skip the entry.
    await refetchMe(queryClient);
  } else {
    await queryClient.invalidateQueries({ queryKey: meQueryKey });
  }
  return queryClient.getQueryData<Profile | null>(meQueryKey);
}

/**
 * Who is signed in: the `me` entry of TanStack Query's cache, read without `useQuery`. Every screen's shell asks this
 * on its first render, and `useQuery`'s observer machinery (about 7.5 KB gzip) would then be part of every first
 * load (docs/decisions/0008-web-code-splitting.md). The cache stays the one source: `setQueryData`, `removeQueries`
 * and `invalidateQueries` on `meQueryKey` behave as they do for a `useQuery` reader, and a mount fetches when the
 * answer is older than `staleTime`, as `useQuery` does.
 */
export function useMe(): MeState {
  const queryClient = useQueryClient();
  const subscribe = React.useCallback(
    (onChange: () => void) =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.query.queryHash === meQueryHash) onChange();
      }),
    [queryClient],
  );
  const state = React.useSyncExternalStore(subscribe, () =>
    queryClient.getQueryState<Profile | null, Error>(meQueryKey),
  );
  React.useEffect(() => {
    readers.set(queryClient, (readers.get(queryClient) ?? 0) + 1);
    void queryClient.prefetchQuery(meQueryOptions());
    return () => void readers.set(queryClient, (readers.get(queryClient) ?? 1) - 1);
  }, [queryClient]);
  // No observer marks the entry active, so `invalidateQueries` alone would not refetch it: do it here.
  const invalidated = state?.isInvalidated === true && state.fetchStatus === 'idle';
  React.useEffect(() => {
    if (invalidated) void queryClient.prefetchQuery(meQueryOptions());
  }, [invalidated, queryClient]);
  const refetch = React.useCallback(() => refetchMe(queryClient), [queryClient]);
  const base = {
    data: state?.data,
    isPending: state === undefined || state.status === 'pending',
    refetch,
  };
  return state?.status === 'error' && state.error
    ? { ...base, isError: true, error: state.error }
    : { ...base, isError: false, error: null };
}
