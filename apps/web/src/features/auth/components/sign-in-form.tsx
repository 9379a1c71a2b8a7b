import * as React from 'react';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { useSignInMutation } from '../api/auth-mutations';
import { useCredentialsForm } from '../hooks/use-credentials-form';
import { validateEmail, validateSignInPassword } from '../utils/validation';
import { PasswordField } from './password-field';
import { useT } from '@/i18n';

export function SignInForm() {
  const t = useT();
  const [email, setEmail] = React.useState('');
  const { password, setPassword, fieldErrors, serverError, passwordRef, submit } =
    useCredentialsForm<'email' | 'password'>();
  const signIn = useSignInMutation();

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submit({ email: validateEmail(email), password: validateSignInPassword(password) }, () =>
      signIn.mutateAsync({ email: email.trim(), password }),
    );
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="grid gap-4" aria-label={t('common.signIn')}>
      <FormAlert message={serverError} />
      <FormField
        label={t('common.email')}
        name="email"
        type="email"
        autoComplete="email"
        placeholder={t('common.emailPlaceholder')}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={fieldErrors.email}
      />
      <PasswordField
        ref={passwordRef}
        label={t('common.password')}
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={fieldErrors.password}
      />
      <SubmitButton pending={signIn.isPending} className="mt-1 w-full">
        {t('common.signIn')}
      </SubmitButton>
    </form>
  );
}
