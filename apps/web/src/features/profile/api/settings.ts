import type { UserSettings } from '@daohuu/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const settingsQueryKey = ['me', 'settings'] as const;

export function useUserSettings() {
  return useQuery({
    queryKey: settingsQueryKey,
    queryFn: ({ signal }) => api.get<UserSettings>('/api/me/settings', { signal }),
  });
}

export function useUpdateUserSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: UserSettings) =>
      api.patch<UserSettings>('/api/me/settings', {
        announceBreakthrough: settings.announceBreakthrough,
      }),
    onSuccess: (settings) => queryClient.setQueryData(settingsQueryKey, settings),
  });
}
