import { MAX_SLOW_MODE_SECONDS, type SlowModeChannel } from '@daohuu/domain';
import * as React from 'react';
import { toast } from '@/lib/toast';
import { FormAlert } from '@/components/form-alert';
import { QueryError } from '@/components/query-error';
import { SubmitButton } from '@/components/submit-button';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useSetSlowMode, useSlowMode } from '../../api/moderation';
import { isValidCid } from '../../utils/moderation-format';
import { errorMessage } from './action-form';
import { LoadingCards } from './queue-panel';
import { useT } from '@/i18n';

const DEFAULT_SECONDS = 10;

/** Reads the seconds field: a whole number 1–120, or null. */
export function parseCooldownSeconds(value: string): number | null {
  if (!/^\d+$/.test(value.trim())) return null;
  const seconds = Number(value.trim());
  return seconds >= 1 && seconds <= MAX_SLOW_MODE_SECONDS ? seconds : null;
}

/** One channel's slow mode: on with its seconds, or off. */
export function SlowModeRow({ channel }: { channel: SlowModeChannel }) {
  const t = useT();
  const id = React.useId();
  const update = useSetSlowMode();
  const [on, setOn] = React.useState(channel.cooldown > 0);
  const [seconds, setSeconds] = React.useState(String(channel.cooldown || DEFAULT_SECONDS));
  const [error, setError] = React.useState<string | null>(null);
  const label = channel.name ?? channel.cid;

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const cooldown = on ? parseCooldownSeconds(seconds) : 0;
    if (cooldown === null) {
      setError(t('admin.moderation.secondsRange', { max: MAX_SLOW_MODE_SECONDS }));
      return;
    }
    try {
      await update.mutateAsync({ cid: channel.cid, cooldown });
      toast.success(
        cooldown
          ? t('admin.moderation.slowOn', { seconds: cooldown, label })
          : t('admin.moderation.slowOff', { label }),
      );
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <form
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm"
      onSubmit={handleSubmit}
      aria-label={t('admin.moderation.slowOf', { label })}
      data-cid={channel.cid}
      noValidate
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-medium">{label}</h3>
        <span className="text-xs text-muted-foreground">{channel.cid}</span>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={on} onChange={(event) => setOn(event.target.checked)} />
          {t('admin.moderation.slowEnable')}
        </label>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-seconds`}>{t('admin.moderation.seconds')}</Label>
          <Input
            id={`${id}-seconds`}
            inputMode="numeric"
            className="w-28"
            disabled={!on}
            value={seconds}
            aria-invalid={error ? true : undefined}
            onChange={(event) => setSeconds(event.target.value)}
          />
        </div>
        <SubmitButton
          pending={update.isPending}
          aria-label={t('admin.moderation.saveSlow', { label })}
        >
          {t('common.save')}
        </SubmitButton>
      </div>
      <FormAlert message={error} />
    </form>
  );
}

/** Slow mode for the sect channels, and for any channel a moderator looks up by cid. */
export function SlowModePanel() {
  const t = useT();
  const [draft, setDraft] = React.useState('');
  const [cid, setCid] = React.useState<string | undefined>(undefined);
  const [lookupError, setLookupError] = React.useState<string | null>(null);
  const channels = useSlowMode(cid);

  function lookUp(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = draft.trim();
    if (!isValidCid(value)) {
      setLookupError(t('admin.moderation.cidRule'));
      return;
    }
    setLookupError(null);
    setCid(value);
  }

  return (
    <div className="grid gap-4">
      <form className="flex flex-wrap items-end gap-2" onSubmit={lookUp} noValidate>
        <div className="grid gap-1.5">
          <Label htmlFor="slow-mode-cid">{t('admin.moderation.findByCid')}</Label>
          <Input
            id="slow-mode-cid"
            className="w-72 max-w-full"
            placeholder={t('admin.moderation.cidPlaceholder')}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <Button type="submit" variant="outline">
          {t('admin.moderation.find')}
        </Button>
      </form>
      <FormAlert message={lookupError} />
      {channels.isPending ? (
        <LoadingCards />
      ) : channels.isError ? (
        <QueryError error={channels.error} onRetry={() => void channels.refetch()} />
      ) : (
        <div className="grid gap-3">
          {channels.data.channels.map((channel) => (
            <SlowModeRow key={`${channel.cid}:${channel.cooldown}`} channel={channel} />
          ))}
        </div>
      )}
    </div>
  );
}
