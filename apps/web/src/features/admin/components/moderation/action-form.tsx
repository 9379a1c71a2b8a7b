import type { ModerationAction } from '@daohuu/domain';
import * as React from 'react';
import { FormAlert } from '@/components/form-alert';
import { SubmitButton } from '@/components/submit-button';
import { Label } from '@/components/ui/label';
import { ApiError } from '@/lib/api-client';
import { actionLabel, BAN_DURATION_OPTIONS, takesDuration } from '../../utils/moderation-format';
import { NativeSelect, Textarea } from './fields';
import { t as translate, useT } from '@/i18n';

export interface ActionChoice {
  action: ModerationAction;
  reason: string;
  durationMinutes: number | null;
}

/** What a moderator may do with a message item, and with a user item (no message to delete or restore). */
const MESSAGE_ACTIONS: ModerationAction[] = [
  'mark_reviewed',
  'delete_message',
  'ban',
  'shadow_ban',
  'unban',
  'restore',
];
const USER_ACTIONS: ModerationAction[] = ['mark_reviewed', 'ban', 'shadow_ban', 'unban'];

export function errorMessage(failure: unknown): string {
  return failure instanceof ApiError ? failure.message : translate('common.genericError');
}

/** The decision on one queue item: an action, a reason, and a length for bans. */
export function ActionForm({
  kind,
  onSubmit,
  pending,
}: {
  kind: 'message' | 'user';
  onSubmit: (choice: ActionChoice) => Promise<void>;
  pending: boolean;
}) {
  const t = useT();
  const id = React.useId();
  const [action, setAction] = React.useState<ModerationAction>('mark_reviewed');
  const [reason, setReason] = React.useState('');
  const [duration, setDuration] = React.useState(BAN_DURATION_OPTIONS[0]!.value);
  const [error, setError] = React.useState<string | null>(null);
  const actions = kind === 'message' ? MESSAGE_ACTIONS : USER_ACTIONS;

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const minutes = BAN_DURATION_OPTIONS.find((option) => option.value === duration)?.minutes;
    try {
      await onSubmit({ action, reason: reason.trim(), durationMinutes: minutes ?? null });
      setReason('');
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <form
      className="grid gap-3"
      onSubmit={handleSubmit}
      aria-label={t('admin.moderation.handleReport')}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-action`}>{t('admin.moderation.actionLabel')}</Label>
          <NativeSelect
            id={`${id}-action`}
            value={action}
            onChange={(event) => setAction(event.target.value as ModerationAction)}
          >
            {actions.map((value) => (
              <option key={value} value={value}>
                {actionLabel(value)}
              </option>
            ))}
          </NativeSelect>
        </div>
        {takesDuration(action) ? (
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
        ) : null}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-reason`}>{t('admin.moderation.reasonLabel')}</Label>
        <Textarea
          id={`${id}-reason`}
          value={reason}
          maxLength={500}
          placeholder={t('admin.moderation.reasonPlaceholder')}
          onChange={(event) => setReason(event.target.value)}
        />
      </div>
      <FormAlert message={error} />
      <div>
        <SubmitButton pending={pending}>{actionLabel(action)}</SubmitButton>
      </div>
    </form>
  );
}
