import { toast } from '@/lib/toast';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useUpdateUserSettings, useUserSettings } from '../api/settings';
import { useT } from '@/i18n';

/** The cultivator's choice to have their breakthroughs announced in Quảng Trường (off until they turn it on). */
export function BreakthroughSetting() {
  const t = useT();
  const settings = useUserSettings();
  const update = useUpdateUserSettings();
  // While saving, the box shows the choice being saved; a failure puts it back.
  const checked = update.isPending
    ? update.variables.announceBreakthrough
    : (settings.data?.announceBreakthrough ?? false);

  async function onChange(next: boolean) {
    try {
      await update.mutateAsync({ announceBreakthrough: next });
      toast.success(next ? t('profile.announceOn') : t('profile.announceOff'));
    } catch {
      toast.error(t('profile.settingsFailed'));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">{t('profile.settingsTitle')}</CardTitle>
        <CardDescription>{t('profile.settingsDescription')}</CardDescription>
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
            <span className="font-medium">{t('profile.announceLabel')}</span>
            <span className="text-muted-foreground">{t('profile.announceDescription')}</span>
          </span>
        </label>
      </CardContent>
    </Card>
  );
}
