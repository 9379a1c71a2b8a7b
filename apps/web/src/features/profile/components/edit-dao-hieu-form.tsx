import { DAO_HIEU_MAX_LENGTH, DAO_HIEU_MIN_LENGTH, type Profile } from '@daohuu/domain';
import * as React from 'react';
import { toast } from '@/lib/toast';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError } from '@/lib/api-client';
import { validateDaoHieuField } from '@/features/auth/utils/validation';
import { useUpdateMe } from '../api/update-me';
import { useT } from '@/i18n';

export function EditDaoHieuForm({ profile }: { profile: Profile }) {
  const t = useT();
  const [daoHieu, setDaoHieu] = React.useState(profile.daoHieu);
  const [fieldError, setFieldError] = React.useState<string | null>(null);
  const [serverError, setServerError] = React.useState<string | null>(null);
  const updateMe = useUpdateMe();
  const unchanged = daoHieu.trim() === profile.daoHieu;

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const error = validateDaoHieuField(daoHieu);
    setFieldError(error);
    setServerError(null);
    if (error) return;
    try {
      const updated = await updateMe.mutateAsync({ daoHieu: daoHieu.trim() });
      setDaoHieu(updated.daoHieu);
      toast.success(t('profile.daoHieuSaved'));
    } catch (failure) {
      setServerError(failure instanceof ApiError ? failure.message : t('common.genericError'));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">{t('profile.editDaoHieuTitle')}</CardTitle>
        <CardDescription>
          {t('profile.editDaoHieuDescription', {
            min: DAO_HIEU_MIN_LENGTH,
            max: DAO_HIEU_MAX_LENGTH,
          })}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={handleSubmit}
          className="grid gap-4"
          aria-label={t('profile.editDaoHieuTitle')}
        >
          <FormAlert message={serverError} />
          <FormField
            label={t('common.daoHieu')}
            name="daoHieu"
            autoComplete="nickname"
            value={daoHieu}
            onChange={(event) => setDaoHieu(event.target.value)}
            error={fieldError}
          />
          <SubmitButton pending={updateMe.isPending} disabled={unchanged} className="w-fit">
            {t('common.save')}
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}
