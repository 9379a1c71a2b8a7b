import { MonitorIcon, MoonIcon, SunIcon } from 'lucide-react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useTheme, type Theme } from '@/hooks/use-theme';
import { useT, type MessageKey } from '@/i18n';
import type { DeferredControlProps } from '@/lib/deferred-control';
import { ThemeMenuButton } from './theme-menu-button';

const THEME_OPTIONS: { value: Theme; label: MessageKey; icon: typeof SunIcon }[] = [
  { value: 'light', label: 'nav.themeLight', icon: SunIcon },
  { value: 'dark', label: 'nav.themeDark', icon: MoonIcon },
  { value: 'system', label: 'nav.themeSystem', icon: MonitorIcon },
];

/** The three theme choices as radio items, for any dropdown menu. */
export function ThemeRadioItems() {
  const t = useT();
  const { theme, setTheme } = useTheme();
  return (
    <DropdownMenuRadioGroup value={theme} onValueChange={(value) => setTheme(value as Theme)}>
      {THEME_OPTIONS.map(({ value, label, icon: Icon }) => (
        <DropdownMenuRadioItem key={value} value={value}>
          <Icon aria-hidden="true" />
          {t(label)}
        </DropdownMenuRadioItem>
      ))}
    </DropdownMenuRadioGroup>
  );
}

/** The header's theme switch, available signed in or not; loaded when first reached for (app-header.tsx). */
export function ThemeMenu({ defaultOpen, autoFocus }: DeferredControlProps) {
  const t = useT();
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <ThemeMenuButton autoFocus={autoFocus} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-44">
        <DropdownMenuLabel>{t('auth.appearance')}</DropdownMenuLabel>
        <ThemeRadioItems />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
