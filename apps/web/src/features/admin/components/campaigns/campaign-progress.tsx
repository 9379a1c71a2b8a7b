import type { CampaignStatusName } from '@daohuu/domain';
import { toast } from '@/lib/toast';
import { FormAlert } from '@/components/form-alert';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { useCampaignProgress, useStopCampaign } from '../../api/campaigns';
import { errorMessage } from '../moderation/action-form';
import { type MessageKey, useT } from '@/i18n';

function statusKey(status: CampaignStatusName): MessageKey {
  return `admin.campaigns.status.${status}`;
}

/** A started campaign: its status and counters, read every second, and the stop button while it runs. */
export function CampaignProgressCard({ id }: { id: string }) {
  const t = useT();
  const progress = useCampaignProgress(id);
  const stop = useStopCampaign();
  const data = progress.data;
  if (!data)
    return <p className="text-sm text-muted-foreground">{t('admin.campaigns.loadingProgress')}</p>;
  const done = data.sent + data.failed;
  const percent = data.targets > 0 ? Math.round((done / data.targets) * 100) : 0;
  const running = data.status === 'in_progress' || data.status === 'scheduled';

  async function handleStop() {
    try {
      await stop.mutateAsync(id);
      await progress.refetch();
      toast.success(t('admin.campaigns.stopped'));
    } catch {
      // Shown below from the mutation's error.
    }
  }

  return (
    <section
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm"
      aria-label={t('admin.campaigns.progressLabel')}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-medium">{t('admin.campaigns.progress')}</h2>
        <span data-testid="campaign-status">{t(statusKey(data.status))}</span>
      </div>
      <Progress value={percent} aria-label={t('admin.campaigns.sentShare')} />
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">{t('admin.campaigns.targets')}</dt>
          <dd data-testid="campaign-targets">{data.targets}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{t('admin.campaigns.sent')}</dt>
          <dd data-testid="campaign-sent">{data.sent}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{t('admin.campaigns.failed')}</dt>
          <dd>{data.failed}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{t('admin.campaigns.newChannels')}</dt>
          <dd>{data.channelsCreated}</dd>
        </div>
      </dl>
      {running ? (
        <Button variant="destructive" onClick={() => void handleStop()} disabled={stop.isPending}>
          {t('admin.campaigns.stop')}
        </Button>
      ) : null}
      <FormAlert message={stop.error ? errorMessage(stop.error) : null} />
    </section>
  );
}
