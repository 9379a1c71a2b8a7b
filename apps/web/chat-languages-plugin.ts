import type { Plugin } from 'vite';

/**
 * The chat speaks Vietnamese and English only (src/features/chat/i18n/index.ts), yet stream-chat-react's Streami18n
 * imports all twelve of its translations and their dayjs locales up front: about a hundred KB gzip the chat screen
 * never uses. The others are replaced by empty modules; Streami18n then knows no text for them and a language it
 * does not know falls back to its keys, which the app never asks for.
 */
const UNUSED_LANGUAGES = ['de', 'es', 'fr', 'hi', 'it', 'ja', 'ko', 'nl', 'pt', 'ru', 'tr'];

const languages = UNUSED_LANGUAGES.join('|');
const STREAM_TRANSLATION = new RegExp(
  `[\\\\/]node_modules[\\\\/]stream-chat-react[\\\\/]dist[\\\\/]es[\\\\/]i18n[\\\\/](?:${languages})\\.mjs$`,
);
const DAYJS_LOCALE = new RegExp(
  `[\\\\/]node_modules[\\\\/]dayjs[\\\\/]locale[\\\\/](?:${languages})\\.js$`,
);

export function onlyChatLanguages(): Plugin {
  return {
    name: 'daohuu-only-chat-languages',
    apply: 'build',
    load(id) {
      const path = id.split('?', 1)[0] ?? id;
      // A translation is a default-exported object; a dayjs locale only registers itself, as a side effect.
      if (STREAM_TRANSLATION.test(path)) return 'export default {};';
      if (DAYJS_LOCALE.test(path)) return 'export default undefined;';
      return null;
    },
  };
}
