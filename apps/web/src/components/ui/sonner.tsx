import type * as React from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';
import { useTheme } from '@/hooks/use-theme';
import { useT } from '@/i18n';

// docs/product-rules.md §8: notifications stay for 3 seconds.
const TOAST_DURATION_MS = 3000;

function Toaster(props: ToasterProps) {
  const t = useT();
  const { resolvedTheme } = useTheme();
  return (
    <Sonner
      theme={resolvedTheme}
      className="toaster group"
      duration={TOAST_DURATION_MS}
      position="bottom-right"
      containerAriaLabel={t('ui.notifications')}
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster };
