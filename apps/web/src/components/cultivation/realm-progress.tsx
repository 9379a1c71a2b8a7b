import { formatAmount, realmOf } from '@daohuu/domain';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';
import { useT, withNodes } from '@/i18n';

/** How far a tu vi value has come inside its realm, and how much is left before the next one. */
export function RealmProgress({ tuVi, className }: { tuVi: number; className?: string }) {
  const t = useT();
  const realm = realmOf(tuVi);
  if (!realm.valid) return null;

  if (!realm.next) {
    return (
      <div data-slot="realm-progress" className={cn('grid gap-2', className)}>
        <Progress
          value={100}
          aria-label={t('cultivation.progressLabel')}
          indicatorClassName="bg-linear-to-r from-primary to-gold"
        />
        <p className="text-sm text-muted-foreground">
          {t('cultivation.highestRealm')} <span className="font-medium">{realm.name}</span>.
        </p>
      </div>
    );
  }

  // A realm is entered by any value above the previous upper bound; tu vi is an integer.
  const remaining = Math.floor(realm.next.lower - tuVi) + 1;
  const percent = Math.floor(realm.progress * 100);
  return (
    <div data-slot="realm-progress" className={cn('grid gap-2', className)}>
      <div className="flex items-baseline justify-between gap-4 text-sm">
        <span className="text-muted-foreground">
          {withNodes(t('cultivation.remaining'), {
            value: (
              <span className="font-medium text-foreground tabular-nums">
                {formatAmount(remaining, 1)}
              </span>
            ),
            realm: <span className="font-medium text-foreground">{realm.next.name}</span>,
          })}
        </span>
        <span className="font-medium tabular-nums">{percent}%</span>
      </div>
      <Progress
        value={percent}
        aria-label={t('cultivation.progressTo', { realm: realm.next.name })}
        indicatorClassName="bg-linear-to-r from-primary to-gold"
      />
    </div>
  );
}
