import {
  REALMS,
  formatAmount,
  realmIndexOf,
  realmRowName,
  type RealmReading,
} from '@daohuu/domain';
import { MapPinIcon } from 'lucide-react';
import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { type Translate, useT } from '@/i18n';

// Index used for the "below 0" row, which sits before REALMS[0].
const INVALID_ROW = -1;
const TIEN_NHAN_FLOOR = REALMS[REALMS.length - 2]?.upper ?? 0;

interface Row {
  index: number;
  major: string;
  name: string;
  bound: string;
  firstOfMajor: boolean;
}

function buildRows(reading: RealmReading, t: Translate): Row[] {
  const rows: Row[] = [
    {
      index: INVALID_ROW,
      major: '—',
      name: t('cultivation.invalid'),
      bound: t('realms.belowZero'),
      firstOfMajor: true,
    },
  ];
  REALMS.forEach((row, index) => {
    rows.push({
      index,
      major: row.major,
      name: realmRowName(row, reading),
      bound: Number.isFinite(row.upper)
        ? formatAmount(row.upper, 1)
        : t('realms.above', { value: formatAmount(TIEN_NHAN_FLOOR, 1) }),
      firstOfMajor: REALMS[index - 1]?.major !== row.major,
    });
  });
  return rows;
}

/**
 * docs/product-rules.md §3 as a table: a value belongs to the first row whose bound it does not exceed. The viewer's
 * own row (when `tuVi` is given) is marked with aria-current.
 */
export function RealmTable({ tuVi }: { tuVi?: number | undefined }) {
  const t = useT();
  const [reading, setReading] = React.useState<RealmReading>('full');
  const rows = React.useMemo(() => buildRows(reading, t), [reading, t]);
  const current = tuVi === undefined ? null : realmIndexOf(tuVi);

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">{t('realms.rule')}</p>
        <div role="group" aria-label={t('realms.readingLabel')} className="flex gap-1">
          <Button
            size="sm"
            variant={reading === 'full' ? 'secondary' : 'ghost'}
            aria-pressed={reading === 'full'}
            onClick={() => setReading('full')}
          >
            {t('realms.readingFull')}
          </Button>
          <Button
            size="sm"
            variant={reading === 'short' ? 'secondary' : 'ghost'}
            aria-pressed={reading === 'short'}
            onClick={() => setReading('short')}
          >
            {t('realms.readingShort')}
          </Button>
        </div>
      </div>
      {/* On a phone the major realm column steps aside (each name already starts with it), so the thresholds fit
          without a sideways scroll. */}
      <div className="overflow-x-auto rounded-xl border bg-card shadow-sm">
        <table className="w-full text-sm" data-slot="realm-table">
          <caption className="sr-only">{t('realms.caption')}</caption>
          <thead className="bg-muted/60 text-left text-xs tracking-wide text-muted-foreground uppercase">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium max-sm:hidden">
                {t('realms.majorColumn')}
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                {t('realms.realmColumn')}
              </th>
              <th scope="col" className="px-4 py-3 text-right font-medium">
                {t('realms.boundColumn')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const isCurrent = row.index === current;
              return (
                <tr
                  key={row.index}
                  aria-current={isCurrent ? 'true' : undefined}
                  data-current={isCurrent ? 'true' : undefined}
                  className={cn(
                    'transition-colors',
                    row.firstOfMajor && 'border-t',
                    isCurrent ? 'bg-gold/15 ring-1 ring-gold/50 ring-inset' : 'hover:bg-muted/40',
                  )}
                >
                  <td className="px-4 py-2.5 font-display font-medium whitespace-nowrap max-sm:hidden">
                    {row.firstOfMajor ? row.major : null}
                  </td>
                  <td
                    className={cn(
                      'px-4 py-2.5 max-sm:px-3',
                      row.index === INVALID_ROW && 'text-warning-strong',
                      isCurrent && 'font-semibold',
                    )}
                  >
                    <span className="inline-flex flex-wrap items-center gap-2">
                      {row.name}
                      {isCurrent ? (
                        <Badge variant="gold">
                          <MapPinIcon aria-hidden="true" />
                          {t('realms.youAreHere')}
                        </Badge>
                      ) : null}
                    </span>
                  </td>
                  <td className="px-4 py-2.5 text-right tabular-nums max-sm:px-3 sm:whitespace-nowrap">
                    {row.bound}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
