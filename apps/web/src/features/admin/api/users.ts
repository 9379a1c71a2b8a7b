import type { AdminUserPatch, Profile, UsersPage } from '@daohuu/domain';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth';

export const USERS_PAGE_SIZE = 20;

export interface UsersQuery {
  query: string;
  offset: number;
}

export function getUsers({ query, offset }: UsersQuery, signal?: AbortSignal): Promise<UsersPage> {
  return api.get<UsersPage>('/api/admin/users', {
    query: { query: query.trim() || undefined, limit: USERS_PAGE_SIZE, offset },
    signal,
  });
}

export const usersQueryKey = ['admin', 'users'] as const;

export function usersQueryOptions(params: UsersQuery) {
  return queryOptions({
    queryKey: [...usersQueryKey, params],
    queryFn: ({ signal }) => getUsers(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUsers(params: UsersQuery) {
  return useQuery(usersQueryOptions(params));
}

export interface UpdateUserInput extends AdminUserPatch {
  id: string;
}

export function updateUser({ id, ...changes }: UpdateUserInput): Promise<Profile> {
  return api.patch<Profile>(`/api/admin/users/${encodeURIComponent(id)}`, { ...changes });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (updated) => {
      // Show the saved values at once in every cached page, then let the server have the last word.
      queryClient.setQueriesData<UsersPage>({ queryKey: usersQueryKey }, (page) =>
        page
          ? { ...page, users: page.users.map((user) => (user.id === updated.id ? updated : user)) }
          : page,
      );
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
      const me = queryClient.getQueryData<Profile | null>(meQueryKey);
      if (me?.id === updated.id) queryClient.setQueryData(meQueryKey, updated);
    },
  });
}
