import { useMutation, useQueryClient } from '@tanstack/react-query';
import { t } from '@/i18n';
import { ApiError } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth';

/** Signs out; only the account menu offers it, so its mutation code stays out of the first load. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      // better-auth's client loads on demand: the first screen only needs `/api/me`.
      const { authClient } = await import('@/lib/auth-client');
      const { error } = await authClient.signOut();
      if (error)
        throw new ApiError(error.status, error.code ?? 'SIGN_OUT_FAILED', t('auth.signOutFailed'));
    },
    onSuccess: () => {
      queryClient.setQueryData(meQueryKey, null);
      // Whatever was fetched for the previous user (admin lists, …) must not leak to the next one.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryKey[0] });
    },
  });
}
