import * as React from 'react';
import { toast } from 'sonner';
import { FormAlert } from '@/components/form-alert';
import { SubmitButton } from '@/components/submit-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { AuthFailure } from '@/features/auth/api/auth-mutations';
import { PasswordField } from '@/features/auth/components/password-field';
import { authErrorMessage } from '@/features/auth/utils/auth-errors';
import { validateNewPassword } from '@/features/auth/utils/validation';
import { useChangePassword } from '../api/change-password';

const FALLBACK = 'Đã có lỗi xảy ra. Vui lòng thử lại.';

/** better-auth says INVALID_PASSWORD when the current password is wrong; here that is the only way to get it. */
function changeFailureMessage(failure: unknown): string {
  if (!(failure instanceof AuthFailure)) return FALLBACK;
  const code = failure.details.code ?? failure.details.error?.code;
  if (code === 'INVALID_PASSWORD') return 'Mật khẩu hiện tại không đúng.';
  return authErrorMessage(failure.details);
}

interface FieldErrors {
  current: string | null;
  next: string | null;
}

export function ChangePasswordForm() {
  const [current, setCurrent] = React.useState('');
  const [next, setNext] = React.useState('');
  const [errors, setErrors] = React.useState<FieldErrors>({ current: null, next: null });
  const [serverError, setServerError] = React.useState<string | null>(null);
  const changePassword = useChangePassword();

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const nextErrors: FieldErrors = {
      current: current ? null : 'Vui lòng nhập mật khẩu hiện tại.',
      next:
        validateNewPassword(next) ??
        (next === current ? 'Mật khẩu mới phải khác mật khẩu hiện tại.' : null),
    };
    setErrors(nextErrors);
    setServerError(null);
    if (nextErrors.current || nextErrors.next) return;
    try {
      await changePassword.mutateAsync({ currentPassword: current, newPassword: next });
      setCurrent('');
      setNext('');
      toast.success('Đã đổi mật khẩu.');
    } catch (failure) {
      setServerError(changeFailureMessage(failure));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Đổi mật khẩu</CardTitle>
        <CardDescription>Mật khẩu mới dài ít nhất 8 ký tự.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={handleSubmit} className="grid gap-4" aria-label="Đổi mật khẩu">
          <FormAlert message={serverError} />
          <PasswordField
            label="Mật khẩu hiện tại"
            name="currentPassword"
            autoComplete="current-password"
            value={current}
            onChange={(event) => setCurrent(event.target.value)}
            error={errors.current}
          />
          <PasswordField
            label="Mật khẩu mới"
            name="newPassword"
            autoComplete="new-password"
            value={next}
            onChange={(event) => setNext(event.target.value)}
            error={errors.next}
          />
          <SubmitButton pending={changePassword.isPending} className="w-fit">
            Đổi mật khẩu
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}
