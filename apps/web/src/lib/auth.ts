import type { Profile, Role } from '@daohuu/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from './api-client';

export const ROLE_LABELS: Record<Role, string> = {
  user: 'Thành viên',
  moderator: 'Người kiểm duyệt',
  admin: 'Quản trị viên',
};

export const meQueryKey = ['me'] as const;

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
  });
}

/** Who is signed in: `data` is the Profile, null when signed out, undefined while loading. */
export function useMe() {
  return useQuery(meQueryOptions());
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      // better-auth's client loads on demand: the first screen only needs `/api/me`.
      const { authClient } = await import('./auth-client');
      const { error } = await authClient.signOut();
      if (error)
        throw new ApiError(
          error.status,
          error.code ?? 'SIGN_OUT_FAILED',
          'Không thể đăng xuất. Vui lòng thử lại.',
        );
    },
    onSuccess: () => {
      queryClient.setQueryData(meQueryKey, null);
      // Whatever was fetched for the previous user (admin lists, …) must not leak to the next one.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryKey[0] });
    },
  });
}
