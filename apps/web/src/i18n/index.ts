export {
  loadCataloguePart,
  shownLanguageNow,
  t,
  translatorIn,
  useShownLanguage,
  useT,
  whenLanguageReady,
  withCatalogueParts,
} from './i18n';
export type { CataloguePart } from './catalogue-parts';
export type { MessageKey, MessageValues, Translate } from './i18n';
export { DATE_LOCALES, dateFormat, formatDate, formatMomentIn } from './format';
export {
  currentLanguage,
  LANGUAGE_LABELS,
  LANGUAGE_STORAGE_KEY,
  LANGUAGES,
  readLanguage,
  subscribeLanguage,
  useLanguage,
  writeLanguage,
} from './language';
export type { Language } from './language';
export { withNodes } from './with-nodes';
