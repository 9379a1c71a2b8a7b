import { LanguagesIcon } from 'lucide-react';
import {
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
} from '@/components/ui/dropdown-menu';
import {
  CHAT_LANGUAGE_LABELS,
  useChatLanguage,
  type ChatLanguage,
} from '../language/chat-language';

const LANGUAGES: ChatLanguage[] = ['vi', 'en'];

/** The chat's language switch for a dropdown menu (the rest of the app stays Vietnamese). */
export function ChatLanguageItems() {
  const [language, setLanguage] = useChatLanguage();
  return (
    <>
      <DropdownMenuLabel className="flex items-center gap-1.5 text-xs font-normal text-muted-foreground">
        <LanguagesIcon className="size-3.5" aria-hidden="true" />
        Ngôn ngữ trò chuyện
      </DropdownMenuLabel>
      <DropdownMenuRadioGroup
        value={language}
        onValueChange={(value) => setLanguage(value === 'en' ? 'en' : 'vi')}
      >
        {LANGUAGES.map((value) => (
          <DropdownMenuRadioItem key={value} value={value} lang={value}>
            {CHAT_LANGUAGE_LABELS[value]}
          </DropdownMenuRadioItem>
        ))}
      </DropdownMenuRadioGroup>
    </>
  );
}
