import * as React from 'react';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { validateDaoHieu } from '@/lib/dao-hieu';
import { useSignUpMutation } from '../api/auth-mutations';
import { useCredentialsForm } from '../hooks/use-credentials-form';
import { validateEmail, validateNewPassword } from '../utils/validation';
import { PasswordField } from './password-field';

export function SignUpForm() {
  const [daoHieu, setDaoHieu] = React.useState('');
  const [email, setEmail] = React.useState('');
  const { password, setPassword, fieldErrors, serverError, passwordRef, submit } =
    useCredentialsForm<'daoHieu' | 'email' | 'password'>();
  const signUp = useSignUpMutation();

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors = {
      daoHieu: validateDaoHieu(daoHieu),
      email: validateEmail(email),
      password: validateNewPassword(password),
    };
    void submit(errors, () =>
      signUp.mutateAsync({ daoHieu: daoHieu.trim(), email: email.trim(), password }),
    );
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
      <PasswordField
        ref={passwordRef}
        label="Mật khẩu"
        name="password"
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
