import type { Profile } from '@daohuu/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { t } from '@/i18n';
import { toast } from '@/lib/toast';
import { meQueryKey } from '@/lib/auth';
import { useLoginDialog } from '@/lib/login-dialog';

/** After a successful sign-in or sign-up: refresh who is signed in everywhere, close, greet. */
export function useCompleteSignIn() {
  const queryClient = useQueryClient();
  const { closeLogin } = useLoginDialog();
  return useCallback(
    async (fallbackName: string) => {
      // Refetches every mounted `me` query, so the whole app shows the user without a reload.
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
      const me = queryClient.getQueryData<Profile | null>(meQueryKey);
      closeLogin();
      toast.success(t('auth.welcome', { name: me?.daoHieu ?? fallbackName }));
    },
    [queryClient, closeLogin],
  );
}
