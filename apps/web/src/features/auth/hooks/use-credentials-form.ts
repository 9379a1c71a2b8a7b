import * as React from 'react';
import { AuthFailure } from '../api/auth-mutations';
import { authErrorMessage } from '../utils/auth-errors';
import { useCompleteSignIn } from './use-complete-sign-in';

type FieldErrors<Field extends string> = Partial<Record<Field, string | null>>;

/**
 * The submit flow the sign-in and sign-up forms share: check the fields, call the server, then finish signing in.
 * A refusal shows the server's reason and clears only the password (the one thing to retype), with the cursor
 * back in it.
 */
export function useCredentialsForm<Field extends string>() {
  const [password, setPassword] = React.useState('');
  const [fieldErrors, setFieldErrors] = React.useState<FieldErrors<Field>>({});
  const [serverError, setServerError] = React.useState<string | null>(null);
  const passwordRef = React.useRef<HTMLInputElement>(null);
  const completeSignIn = useCompleteSignIn();

  async function submit(
    errors: FieldErrors<Field>,
    request: () => Promise<{ user: { name: string } }>,
  ): Promise<void> {
    setFieldErrors(errors);
    setServerError(null);
    if (Object.values(errors).some(Boolean)) return;
    try {
      const result = await request();
      await completeSignIn(result.user.name);
    } catch (error) {
      setServerError(authErrorMessage(error instanceof AuthFailure ? error.details : {}));
      setPassword('');
      passwordRef.current?.focus();
    }
  }

  return { password, setPassword, fieldErrors, serverError, passwordRef, submit };
}
