import { useMutation } from '@tanstack/react-query';
import type { AuthClientError } from '../utils/auth-errors';

/** A failed better-auth call, carrying the code the dialog translates. */
export class AuthFailure extends Error {
  override readonly name = 'AuthFailure';

  constructor(readonly details: AuthClientError) {
    super(details.message ?? details.code ?? 'Authentication failed');
  }
}

interface AuthResult {
  user: { name: string; email: string };
}

// better-auth's client loads with the first sign-in or sign-up, not with the page
// (docs/decisions/0008-web-code-splitting.md); a failed download counts as a network error.
async function loadAuthClient() {
  return (await import('@/lib/auth-client')).authClient;
}

async function call(request: () => Promise<{ data: unknown; error: AuthClientError | null }>) {
  let result: { data: unknown; error: AuthClientError | null };
  try {
    result = await request();
  } catch {
    throw new AuthFailure({ code: 'NETWORK_ERROR' });
  }
  if (result.error) throw new AuthFailure(result.error);
  return result.data as AuthResult;
}

export interface SignInInput {
  email: string;
  password: string;
}

export interface SignUpInput extends SignInInput {
  daoHieu: string;
}

export function useSignInMutation() {
  return useMutation({
    mutationFn: ({ email, password }: SignInInput) =>
      call(async () => (await loadAuthClient()).signIn.email({ email, password })),
  });
}

export function useSignUpMutation() {
  return useMutation({
    mutationFn: ({ email, password, daoHieu }: SignUpInput) =>
      call(async () => (await loadAuthClient()).signUp.email({ email, password, name: daoHieu })),
  });
}
