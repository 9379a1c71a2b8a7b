import { MoonIcon, SunIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { useTheme } from '@/hooks/use-theme';
import { useT } from '@/i18n';

/** The header's theme button: the menu's trigger, and its stand-in until the menu has loaded (app-header.tsx). */
export function ThemeMenuButton(props: React.ComponentProps<typeof Button>) {
  const t = useT();
  const { resolvedTheme } = useTheme();
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-8"
      aria-label={t('auth.appearance')}
      {...props}
    >
      {resolvedTheme === 'dark' ? <MoonIcon aria-hidden="true" /> : <SunIcon aria-hidden="true" />}
    </Button>
  );
}
