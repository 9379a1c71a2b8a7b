import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { meQueryKey, type Profile } from '@/lib/auth';

export interface UpdateMeInput {
  daoHieu: string;
}

export function updateMe(input: UpdateMeInput): Promise<Profile> {
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
