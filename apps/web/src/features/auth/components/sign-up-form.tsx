import * as React from 'react';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { validateDaoHieu } from '@/lib/dao-hieu';
import { AuthFailure, useSignUpMutation } from '../api/auth-mutations';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { authErrorMessage } from '../utils/auth-errors';
import { validateEmail, validateNewPassword } from '../utils/validation';

interface FieldErrors {
  daoHieu?: string | null;
  email?: string | null;
  password?: string | null;
}

export function SignUpForm() {
  const [daoHieu, setDaoHieu] = React.useState('');
  const [email, setEmail] = React.useState('');
  const [password, setPassword] = React.useState('');
  const [fieldErrors, setFieldErrors] = React.useState<FieldErrors>({});
  const [serverError, setServerError] = React.useState<string | null>(null);
  const passwordRef = React.useRef<HTMLInputElement>(null);
  const signUp = useSignUpMutation();
  const completeSignIn = useCompleteSignIn();

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors = {
      daoHieu: validateDaoHieu(daoHieu),
      email: validateEmail(email),
      password: validateNewPassword(password),
    };
    setFieldErrors(errors);
    setServerError(null);
    if (errors.daoHieu || errors.email || errors.password) return;
    try {
      const result = await signUp.mutateAsync({
        daoHieu: daoHieu.trim(),
        email: email.trim(),
        password,
      });
      await completeSignIn(result.user.name);
    } catch (error) {
      setServerError(authErrorMessage(error instanceof AuthFailure ? error.details : {}));
      setPassword('');
      passwordRef.current?.focus();
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="grid gap-4" aria-label="Đăng ký">
      <FormAlert message={serverError} />
      <FormField
        label="Đạo hiệu"
        name="daoHieu"
        autoComplete="nickname"
        placeholder="Ví dụ: Lam Phong"
        value={daoHieu}
        onChange={(event) => setDaoHieu(event.target.value)}
        error={fieldErrors.daoHieu}
      />
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
        autoComplete="new-password"
        placeholder="Ít nhất 8 ký tự"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={fieldErrors.password}
      />
      <SubmitButton pending={signUp.isPending} className="mt-1 w-full">
        Đăng ký
      </SubmitButton>
    </form>
  );
}
