/**
 * The chat follows the app-wide language (src/i18n/language.ts); these names stay for the chat code that uses them.
 */
export type { Language as ChatLanguage } from '@/i18n/language';
export {
  LANGUAGE_LABELS as CHAT_LANGUAGE_LABELS,
  LANGUAGE_STORAGE_KEY as CHAT_LANGUAGE_STORAGE_KEY,
  readLanguage as readChatLanguage,
  useLanguage as useChatLanguage,
  writeLanguage as writeChatLanguage,
} from '@/i18n/language';
