import type { Profile, Role } from '@daohuu/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
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
