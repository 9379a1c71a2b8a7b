import * as React from 'react';
import type { StreamChat } from 'stream-chat';
import { toast } from '@/lib/toast';
import { FormAlert } from '@/components/form-alert';
import { SubmitButton } from '@/components/submit-button';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { useT } from '@/i18n';
import {
  REPORT_DETAIL_MAX,
  REPORT_REASONS,
  reportReasonLabel,
  reportReasonText,
  type ReportReason,
} from './report-reasons';
import type { ReportTarget } from './report-dialog';

function ReportForm({
  client,
  target,
  onDone,
}: {
  client: StreamChat;
  target: ReportTarget;
  onDone: () => void;
}) {
  const id = React.useId();
  const [reason, setReason] = React.useState<ReportReason | null>(null);
  const [detail, setDetail] = React.useState('');
  const [error, setError] = React.useState<string | null>(null);
  const [pending, setPending] = React.useState(false);
  const t = useT();

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = reportReasonText(reason, detail, t);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    setPending(true);
    setError(null);
    try {
      await client.flagMessage(target.id, { reason: checked.text });
      toast.success(t('chat.report.sent'));
      onDone();
    } catch {
      setError(t('chat.report.failed'));
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="grid gap-4" onSubmit={handleSubmit} noValidate>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{t('chat.report.reasonLegend')}</legend>
        {REPORT_REASONS.map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-reason`}
              value={value}
              checked={reason === value}
              onChange={() => setReason(value)}
            />
            {reportReasonLabel(value, t)}
          </label>
        ))}
      </fieldset>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-detail`}>{t('chat.report.detailLabel')}</Label>
        <textarea
          id={`${id}-detail`}
          className="min-h-20 w-full rounded-md border border-input bg-transparent px-3 py-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50"
          maxLength={REPORT_DETAIL_MAX}
          value={detail}
          onChange={(event) => setDetail(event.target.value)}
        />
      </div>
      <FormAlert message={error} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          {t('chat.report.cancel')}
        </Button>
        <SubmitButton pending={pending}>{t('chat.report.submit')}</SubmitButton>
      </DialogFooter>
    </form>
  );
}

/** The report form in its dialog: its code (Radix's dialog) downloads when a message is first reported. */
export function ReportMessageDialog({
  client,
  target,
  open,
  onClose,
}: {
  client: StreamChat;
  target: ReportTarget | null;
  open: boolean;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('chat.report.title')}</DialogTitle>
          <DialogDescription>
            {target?.authorName
              ? t('chat.report.whyAuthor', { name: target.authorName })
              : t('chat.report.why')}
          </DialogDescription>
        </DialogHeader>
        {target ? (
          <ReportForm key={target.id} client={client} target={target} onDone={onClose} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
