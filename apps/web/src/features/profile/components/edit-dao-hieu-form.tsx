import type { Profile } from '@daohuu/domain';
import * as React from 'react';
import { toast } from 'sonner';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError } from '@/lib/api-client';
import { validateDaoHieu } from '@/lib/dao-hieu';
import { useUpdateMe } from '../api/update-me';

export function EditDaoHieuForm({ profile }: { profile: Profile }) {
  const [daoHieu, setDaoHieu] = React.useState(profile.daoHieu);
  const [fieldError, setFieldError] = React.useState<string | null>(null);
  const [serverError, setServerError] = React.useState<string | null>(null);
  const updateMe = useUpdateMe();
  const unchanged = daoHieu.trim() === profile.daoHieu;

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const error = validateDaoHieu(daoHieu);
    setFieldError(error);
    setServerError(null);
    if (error) return;
    try {
      const updated = await updateMe.mutateAsync({ daoHieu: daoHieu.trim() });
      setDaoHieu(updated.daoHieu);
      toast.success('Đã cập nhật đạo hiệu.');
    } catch (failure) {
      setServerError(
        failure instanceof ApiError ? failure.message : 'Đã có lỗi xảy ra. Vui lòng thử lại.',
      );
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Đổi đạo hiệu</CardTitle>
        <CardDescription>Đạo hiệu hiển thị với mọi đạo hữu, dài từ 2 đến 32 ký tự.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={handleSubmit} className="grid gap-4" aria-label="Đổi đạo hiệu">
          <FormAlert message={serverError} />
          <FormField
            label="Đạo hiệu"
            name="daoHieu"
            autoComplete="nickname"
            value={daoHieu}
            onChange={(event) => setDaoHieu(event.target.value)}
            error={fieldError}
          />
          <SubmitButton pending={updateMe.isPending} disabled={unchanged} className="w-fit">
            Lưu
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}
