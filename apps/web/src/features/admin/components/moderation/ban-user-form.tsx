import * as React from 'react';
import { toast } from '@/lib/toast';
import { FormAlert } from '@/components/form-alert';
import { SubmitButton } from '@/components/submit-button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useBanUser } from '../../api/moderation';
import { BAN_DURATION_OPTIONS } from '../../utils/moderation-format';
import { errorMessage } from './action-form';
import { NativeSelect } from './fields';
import { useT } from '@/i18n';

/** Bans a user by id outside the queue, e.g. after a report made elsewhere. */
export function BanUserForm() {
  const t = useT();
  const id = React.useId();
  const ban = useBanUser();
  const [userId, setUserId] = React.useState('');
  const [reason, setReason] = React.useState('');
  const [duration, setDuration] = React.useState(BAN_DURATION_OPTIONS[0]!.value);
  const [shadow, setShadow] = React.useState(false);
  const [error, setError] = React.useState<string | null>(null);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    if (!userId.trim()) {
      setError(t('admin.moderation.userIdRequired'));
      return;
    }
    const minutes = BAN_DURATION_OPTIONS.find((option) => option.value === duration)?.minutes;
    try {
      await ban.mutateAsync({
        userId: userId.trim(),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
        durationMinutes: minutes ?? null,
        shadow,
      });
      toast.success(shadow ? t('admin.moderation.shadowBanned') : t('admin.moderation.banned'));
      setUserId('');
      setReason('');
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <form
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm"
      onSubmit={handleSubmit}
      aria-label={t('admin.moderation.banUser')}
      noValidate
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-user`}>{t('admin.moderation.userId')}</Label>
          <Input
            id={`${id}-user`}
            value={userId}
            onChange={(event) => setUserId(event.target.value)}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-duration`}>{t('admin.moderation.durationLabel')}</Label>
          <NativeSelect
            id={`${id}-duration`}
            value={duration}
            onChange={(event) => setDuration(event.target.value)}
          >
            {BAN_DURATION_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {t(option.label)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-reason`}>{t('admin.moderation.reasonLabel')}</Label>
          <Input
            id={`${id}-reason`}
            value={reason}
            maxLength={500}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={shadow}
          onChange={(event) => setShadow(event.target.checked)}
        />
        {t('admin.moderation.shadowOption')}
      </label>
      <FormAlert message={error} />
      <div>
        <SubmitButton pending={ban.isPending} variant="destructive">
          {t('admin.moderation.action.ban')}
        </SubmitButton>
      </div>
    </form>
  );
}
