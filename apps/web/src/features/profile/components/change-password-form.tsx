import * as React from 'react';
import { toast } from '@/lib/toast';
import { FormAlert } from '@/components/form-alert';
import { SubmitButton } from '@/components/submit-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { AuthFailure } from '@/features/auth/api/auth-mutations';
import { PasswordField } from '@/features/auth/components/password-field';
import { authErrorMessage } from '@/features/auth/utils/auth-errors';
import { validateNewPassword } from '@/features/auth/utils/validation';
import { useChangePassword } from '../api/change-password';
import { type Translate, useT } from '@/i18n';
import { MIN_PASSWORD_LENGTH } from '@daohuu/domain';

/** better-auth says INVALID_PASSWORD when the current password is wrong; here that is the only way to get it. */
function changeFailureMessage(failure: unknown, t: Translate): string {
  if (!(failure instanceof AuthFailure)) return t('common.genericError');
  const code = failure.details.code ?? failure.details.error?.code;
  if (code === 'INVALID_PASSWORD') return t('profile.currentPasswordWrong');
  return authErrorMessage(failure.details);
}

interface FieldErrors {
  current: string | null;
  next: string | null;
}

export function ChangePasswordForm() {
  const t = useT();
  const [current, setCurrent] = React.useState('');
  const [next, setNext] = React.useState('');
  const [errors, setErrors] = React.useState<FieldErrors>({ current: null, next: null });
  const [serverError, setServerError] = React.useState<string | null>(null);
  const changePassword = useChangePassword();

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const nextErrors: FieldErrors = {
      current: current ? null : t('profile.currentPasswordRequired'),
      next: validateNewPassword(next) ?? (next === current ? t('profile.samePassword') : null),
    };
    setErrors(nextErrors);
    setServerError(null);
    if (nextErrors.current || nextErrors.next) return;
    try {
      await changePassword.mutateAsync({ currentPassword: current, newPassword: next });
      setCurrent('');
      setNext('');
      toast.success(t('profile.passwordChanged'));
    } catch (failure) {
      setServerError(changeFailureMessage(failure, t));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">{t('profile.passwordTitle')}</CardTitle>
        <CardDescription>
          {t('profile.passwordDescription', { min: MIN_PASSWORD_LENGTH })}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={handleSubmit}
          className="grid gap-4"
          aria-label={t('profile.passwordTitle')}
        >
          <FormAlert message={serverError} />
          <PasswordField
            label={t('profile.currentPassword')}
            name="currentPassword"
            autoComplete="current-password"
            value={current}
            onChange={(event) => setCurrent(event.target.value)}
            error={errors.current}
          />
          <PasswordField
            label={t('profile.newPassword')}
            name="newPassword"
            autoComplete="new-password"
            value={next}
            onChange={(event) => setNext(event.target.value)}
            error={errors.next}
          />
          <SubmitButton pending={changePassword.isPending} className="w-fit">
            {t('profile.passwordTitle')}
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}
