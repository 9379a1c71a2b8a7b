import { formatTuVi, realmOf } from '@daohuu/domain';
import { SparklesIcon, TriangleAlertIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { useT } from '@/i18n';

/**
 * The one way a tu vi value is shown: its realm name as a badge, or the "Tu vi không hợp lệ" warning
 * (docs/product-rules.md §3). With `showValue`, the value itself precedes the badge (grouped, or in vạn from 10,000: formatTuVi).
 */
export function Cultivation({
  tuVi,
  showValue = false,
  className,
}: {
  tuVi: number;
  showValue?: boolean;
  className?: string;
}) {
  const t = useT();
  const realm = realmOf(tuVi);
  return (
    <span
      data-slot="cultivation"
      data-valid={realm.valid}
      className={cn('inline-flex flex-wrap items-center gap-2', className)}
    >
      {showValue && realm.valid ? (
        <span className="font-medium tabular-nums">
          {t('cultivation.tuViValue', { value: formatTuVi(tuVi) })}
        </span>
      ) : null}
      {realm.valid ? (
        <Badge variant="gold" data-slot="realm-badge">
          <SparklesIcon aria-hidden="true" />
          {realm.name}
        </Badge>
      ) : (
        <Badge variant="warning" data-slot="realm-badge" role="status">
          <TriangleAlertIcon aria-hidden="true" />
          {t('cultivation.invalid')}
        </Badge>
      )}
    </span>
  );
}
