import type * as React from 'react';
import { cn } from '@/lib/utils';

/** The brand mark: a jade disc ringed in gold, twin peaks and the rising pearl of a breakthrough. */
export function LogoMark({ className, ...props }: React.ComponentProps<'svg'>) {
  return (
    <svg
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
      className={cn('size-8 shrink-0', className)}
      {...props}
    >
      <circle cx="32" cy="32" r="30" fill="#0f3d33" />
      <circle cx="32" cy="32" r="27" fill="none" stroke="#d4a843" strokeWidth="3" />
      <path d="M12 44 L26 24 L32 32 L38 22 L52 44 Z" fill="#5fb49c" />
      <path d="M26 24 L29.5 29 L26 28 L22.5 29.5 Z M38 22 L42 28 L38 27 L35 29 Z" fill="#f3ead6" />
      <circle cx="32" cy="15" r="4" fill="#d4a843" />
    </svg>
  );
}
