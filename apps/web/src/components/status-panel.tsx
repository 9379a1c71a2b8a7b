import type { LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { cn } from '@/lib/utils';

/** A centred message for whole-page states: not found, forbidden, signed out, failed to load. */
export function StatusPanel({
  icon: Icon,
  title,
  description,
  children,
  tone = 'default',
  titleAs: Title = 'h1',
}: {
  icon: LucideIcon;
  title: string;
  description?: React.ReactNode;
  children?: React.ReactNode;
  tone?: 'default' | 'warning';
  titleAs?: 'h1' | 'h2';
}) {
  return (
    <section className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
      <span
        className={cn(
          'flex size-14 items-center justify-center rounded-full ring-1',
          tone === 'warning'
            ? 'bg-warning/12 text-warning-strong ring-warning/40'
            : 'bg-gold/12 text-gold-strong ring-gold/40',
        )}
      >
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <Title className="text-2xl font-semibold">{title}</Title>
      {description ? <p className="text-muted-foreground">{description}</p> : null}
      {children ? <div className="mt-2 flex flex-wrap justify-center gap-2">{children}</div> : null}
    </section>
  );
}
