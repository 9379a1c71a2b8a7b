import { toast } from 'sonner';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useUpdateUserSettings, useUserSettings } from '../api/settings';

/** The cultivator's choice to have their breakthroughs announced in Quảng Trường (off until they turn it on). */
export function BreakthroughSetting() {
  const settings = useUserSettings();
  const update = useUpdateUserSettings();
  // While saving, the box shows the choice being saved; a failure puts it back.
  const checked = update.isPending
    ? update.variables.announceBreakthrough
    : (settings.data?.announceBreakthrough ?? false);

  async function onChange(next: boolean) {
    try {
      await update.mutateAsync({ announceBreakthrough: next });
      toast.success(next ? 'Đã bật thông báo đột phá.' : 'Đã tắt thông báo đột phá.');
    } catch {
      toast.error('Không lưu được cài đặt. Vui lòng thử lại.');
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Cài đặt</CardTitle>
        <CardDescription>Những gì các đạo hữu khác được biết về đạo hữu.</CardDescription>
      </CardHeader>
      <CardContent>
        <label className="flex items-start gap-3 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-gold"
            data-testid="announce-breakthrough"
            checked={checked}
            disabled={!settings.isSuccess || update.isPending}
            onChange={(event) => void onChange(event.target.checked)}
          />
          <span className="grid gap-0.5">
            <span className="font-medium">Báo tin đột phá ở Quảng Trường</span>
            <span className="text-muted-foreground">
              Khi đạo hữu đột phá lên cảnh giới mới, Quảng Trường nhận một lời chúc mừng (mỗi cảnh
              giới một lần).
            </span>
          </span>
        </label>
      </CardContent>
    </Card>
  );
}
