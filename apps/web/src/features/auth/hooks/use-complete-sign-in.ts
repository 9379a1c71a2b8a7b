import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { t } from '@/i18n';
import { toast } from '@/lib/toast';
import { refreshMe } from '@/lib/auth';
import { useLoginDialog } from '@/lib/login-dialog';

/** After a successful sign-in or sign-up: refresh who is signed in everywhere, close, greet. */
export function useCompleteSignIn() {
  const queryClient = useQueryClient();
  const { closeLogin } = useLoginDialog();
  return useCallback(
    async (fallbackName: string) => {
      // Every screen reads `me` from the cache, so the whole app shows the user without a reload.
      const me = await refreshMe(queryClient);
      closeLogin();
      toast.success(t('auth.welcome', { name: me?.daoHieu ?? fallbackName }));
    },
    [queryClient, closeLogin],
  );
}
