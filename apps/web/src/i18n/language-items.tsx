import { LanguagesIcon } from 'lucide-react';
import {
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
} from '@/components/ui/dropdown-menu';
import { useT } from './i18n';
import { LANGUAGE_LABELS, LANGUAGES, useLanguage } from './language';

/** The app's one language switch, for a dropdown menu: the whole app, the chat included, follows it. */
export function LanguageItems() {
  const t = useT();
  const [language, setLanguage] = useLanguage();
  return (
    <>
      <DropdownMenuLabel className="flex items-center gap-1.5 text-xs font-normal text-muted-foreground">
        <LanguagesIcon className="size-3.5" aria-hidden="true" />
        {t('language.label')}
      </DropdownMenuLabel>
      <DropdownMenuRadioGroup
        value={language}
        onValueChange={(value) => setLanguage(value === 'en' ? 'en' : 'vi')}
      >
        {LANGUAGES.map((value) => (
          <DropdownMenuRadioItem key={value} value={value} lang={value}>
            {LANGUAGE_LABELS[value]}
          </DropdownMenuRadioItem>
        ))}
      </DropdownMenuRadioGroup>
    </>
  );
}
