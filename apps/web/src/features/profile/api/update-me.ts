import type { OwnProfilePatch, Profile } from '@daohuu/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth';

export function updateMe(input: OwnProfilePatch): Promise<Profile> {
  return api.patch<Profile>('/api/me', { daoHieu: input.daoHieu });
}

export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: (profile) => {
      queryClient.setQueryData(meQueryKey, profile);
    },
  });
}
