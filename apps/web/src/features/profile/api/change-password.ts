import { useMutation } from '@tanstack/react-query';
import { authClient } from '@/lib/auth-client';
import type { AuthClientError } from '@/features/auth/utils/auth-errors';
import { AuthFailure } from '@/features/auth/api/auth-mutations';

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
}

/**
 * better-auth's change-password. Other devices stay signed in: signing them out is a separate decision the app does
 * not offer yet.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: async ({ currentPassword, newPassword }: ChangePasswordInput) => {
      let result: { error: AuthClientError | null };
      try {
        result = await authClient.changePassword({ currentPassword, newPassword });
      } catch {
        throw new AuthFailure({ code: 'NETWORK_ERROR' });
      }
      if (result.error) throw new AuthFailure(result.error);
    },
  });
}
