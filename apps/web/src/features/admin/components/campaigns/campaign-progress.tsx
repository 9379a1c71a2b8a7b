import type { CampaignStatusName } from '@daohuu/domain';
import { toast } from 'sonner';
import { FormAlert } from '@/components/form-alert';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { useCampaignProgress, useStopCampaign } from '../../api/campaigns';
import { errorMessage } from '../moderation/action-form';

const STATUS_LABELS: Record<CampaignStatusName, string> = {
  draft: 'Bản nháp',
  scheduled: 'Đã hẹn giờ',
  in_progress: 'Đang gửi',
  completed: 'Đã gửi xong',
  stopped: 'Đã dừng',
};

/** A started campaign: its status and counters, read every second, and the stop button while it runs. */
export function CampaignProgressCard({ id }: { id: string }) {
  const progress = useCampaignProgress(id);
  const stop = useStopCampaign();
  const data = progress.data;
  if (!data) return <p className="text-sm text-muted-foreground">Đang tải tiến độ…</p>;
  const done = data.sent + data.failed;
  const percent = data.targets > 0 ? Math.round((done / data.targets) * 100) : 0;
  const running = data.status === 'in_progress' || data.status === 'scheduled';

  async function handleStop() {
    try {
      await stop.mutateAsync(id);
      await progress.refetch();
      toast.success('Đã dừng chiến dịch.');
    } catch {
      // Shown below from the mutation's error.
    }
  }

  return (
    <section
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm"
      aria-label="Tiến độ chiến dịch"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-medium">Tiến độ</h2>
        <span data-testid="campaign-status">{STATUS_LABELS[data.status]}</span>
      </div>
      <Progress value={percent} aria-label="Tỉ lệ đã gửi" />
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">Đối tượng</dt>
          <dd data-testid="campaign-targets">{data.targets}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Đã gửi</dt>
          <dd data-testid="campaign-sent">{data.sent}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Không gửi được</dt>
          <dd>{data.failed}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Cuộc trò chuyện mới</dt>
          <dd>{data.channelsCreated}</dd>
        </div>
      </dl>
      {running ? (
        <Button variant="destructive" onClick={() => void handleStop()} disabled={stop.isPending}>
          Dừng chiến dịch
        </Button>
      ) : null}
      <FormAlert message={stop.error ? errorMessage(stop.error) : null} />
    </section>
  );
}
