import * as React from 'react';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { AuthFailure, useSignInMutation } from '../api/auth-mutations';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { authErrorMessage } from '../utils/auth-errors';
import { validateEmail, validateSignInPassword } from '../utils/validation';

interface FieldErrors {
  email?: string | null;
  password?: string | null;
}

export function SignInForm() {
  const [email, setEmail] = React.useState('');
  const [password, setPassword] = React.useState('');
  const [fieldErrors, setFieldErrors] = React.useState<FieldErrors>({});
  const [serverError, setServerError] = React.useState<string | null>(null);
  const passwordRef = React.useRef<HTMLInputElement>(null);
  const signIn = useSignInMutation();
  const completeSignIn = useCompleteSignIn();

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors = { email: validateEmail(email), password: validateSignInPassword(password) };
    setFieldErrors(errors);
    setServerError(null);
    if (errors.email || errors.password) return;
    try {
      const result = await signIn.mutateAsync({ email: email.trim(), password });
      await completeSignIn(result.user.name);
    } catch (error) {
      setServerError(authErrorMessage(error instanceof AuthFailure ? error.details : {}));
      // Keep what the user typed except the secret, and put them back where they retype.
      setPassword('');
      passwordRef.current?.focus();
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="grid gap-4" aria-label="Đăng nhập">
      <FormAlert message={serverError} />
      <FormField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        placeholder="ten@vidu.vn"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={fieldErrors.email}
      />
      <FormField
        ref={passwordRef}
        label="Mật khẩu"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={fieldErrors.password}
      />
      <SubmitButton pending={signIn.isPending} className="mt-1 w-full">
        Đăng nhập
      </SubmitButton>
    </form>
  );
}
