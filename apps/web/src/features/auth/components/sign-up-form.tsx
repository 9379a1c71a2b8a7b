import * as React from 'react';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { useSignUpMutation } from '../api/auth-mutations';
import { useCredentialsForm } from '../hooks/use-credentials-form';
import { validateDaoHieuField, validateEmail, validateNewPassword } from '../utils/validation';
import { PasswordField } from './password-field';
import { useT } from '@/i18n';
import { MIN_PASSWORD_LENGTH } from '@daohuu/domain';

export function SignUpForm() {
  const t = useT();
  const [daoHieu, setDaoHieu] = React.useState('');
  const [email, setEmail] = React.useState('');
  const { password, setPassword, fieldErrors, serverError, passwordRef, submit } =
    useCredentialsForm<'daoHieu' | 'email' | 'password'>();
  const signUp = useSignUpMutation();

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors = {
      daoHieu: validateDaoHieuField(daoHieu),
      email: validateEmail(email),
      password: validateNewPassword(password),
    };
    void submit(errors, () =>
      signUp.mutateAsync({ daoHieu: daoHieu.trim(), email: email.trim(), password }),
    );
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="grid gap-4" aria-label={t('common.signUp')}>
      <FormAlert message={serverError} />
      <FormField
        label={t('common.daoHieu')}
        name="daoHieu"
        autoComplete="nickname"
        placeholder={t('auth.daoHieuPlaceholder')}
        value={daoHieu}
        onChange={(event) => setDaoHieu(event.target.value)}
        error={fieldErrors.daoHieu}
      />
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
        autoComplete="new-password"
        placeholder={t('auth.newPasswordPlaceholder', { min: MIN_PASSWORD_LENGTH })}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={fieldErrors.password}
      />
      <SubmitButton pending={signUp.isPending} className="mt-1 w-full">
        {t('common.signUp')}
      </SubmitButton>
    </form>
  );
}
