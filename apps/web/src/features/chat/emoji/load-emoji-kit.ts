import type { EmojiPickerProps } from 'stream-chat-react/emojis';
import type { createTextComposerEmojiMiddleware } from 'stream-chat-react/emojis';
import { VI_EMOJI_PICKER_TEXTS } from './emoji-picker-texts';

/**
 * Everything the emoji features need, fetched together the first time one of them is used: stream-chat-react's emoji
 * plugin (which bundles emoji-mart) and emoji-mart's data. None of it may be in the chat's first load, so nothing
 * outside this file imports these modules statically.
 */
export interface EmojiKit {
  EmojiPicker: React.ComponentType<EmojiPickerProps>;
  createTextComposerEmojiMiddleware: typeof createTextComposerEmojiMiddleware;
  /** emoji-mart's search over the loaded data, for `:` shortcodes. */
  searchIndex: { search: (query: string) => Promise<EmojiMartResult[] | null | undefined> };
  /** emoji-mart's picker element class, for the full reaction picker. */
  Picker: new (props: Record<string, unknown>) => unknown;
  data: unknown;
}

export interface EmojiMartResult {
  id: string;
  name: string;
  native?: string;
  skins?: { native: string }[];
  emoticons?: string[];
}

let loading: Promise<EmojiKit> | null = null;
let loaded: EmojiKit | null = null;

async function importKit(): Promise<EmojiKit> {
  const [plugin, mart, data] = await Promise.all([
    import('stream-chat-react/emojis'),
    import('emoji-mart'),
    import('@emoji-mart/data'),
  ]);
  // With data and texts handed over, emoji-mart never fetches either from its CDN (the CSP would refuse it anyway).
  await mart.init({ data: data.default, i18n: VI_EMOJI_PICKER_TEXTS });
  return {
    EmojiPicker: plugin.EmojiPicker,
    createTextComposerEmojiMiddleware: plugin.createTextComposerEmojiMiddleware,
    searchIndex: mart.SearchIndex as EmojiKit['searchIndex'],
    Picker: mart.Picker as unknown as EmojiKit['Picker'],
    data: data.default,
  };
}

/** Starts (or joins) the download; a failed one (say, offline) is tried again on the next call. */
export function loadEmojiKit(): Promise<EmojiKit> {
  loading ??= importKit().then(
    (kit) => {
      loaded = kit;
      return kit;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The kit if it has already arrived, so a later composer or picker can use it at once. */
export function loadedEmojiKit(): EmojiKit | null {
  return loaded;
}
