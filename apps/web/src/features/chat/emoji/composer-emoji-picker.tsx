import * as React from 'react';
import { Button, useComponentContextIcons, useTranslationContext } from 'stream-chat-react';
import { useTheme } from '@/hooks/use-theme';
import { useChatLanguage } from '../language/chat-language';
import { VI_EMOJI_PICKER_TEXTS } from './emoji-picker-texts';
import { loadEmojiKit, loadedEmojiKit, type EmojiKit } from './load-emoji-kit';

const SDK_BUTTON = '.str-chat__emoji-picker-button';

/** Props for emoji-mart's picker: the loaded data, our texts in Vietnamese, the app's theme. */
export function emojiMartProps(
  kit: EmojiKit,
  language: string,
  theme: 'light' | 'dark',
): Record<string, unknown> {
  return {
    data: kit.data,
    ...(language === 'vi' ? { i18n: VI_EMOJI_PICKER_TEXTS } : {}),
    theme,
    previewPosition: 'none',
    skinTonePosition: 'search',
  };
}

/**
 * The composer's emoji button. Until it is first hovered, focused or clicked it is only a button: then
 * stream-chat-react's EmojiPicker and emoji-mart's data download (load-emoji-kit.ts), the SDK's picker takes the
 * button's place, and a click made while downloading opens it once it is there.
 */
export function ComposerEmojiPicker() {
  const { t } = useTranslationContext();
  // The app's chat language, not the SDK's `language` (which follows the browser).
  const [language] = useChatLanguage();
  const { IconEmoji } = useComponentContextIcons();
  const { resolvedTheme } = useTheme();
  const [kit, setKit] = React.useState<EmojiKit | null>(loadedEmojiKit);
  const [openWhenLoaded, setOpenWhenLoaded] = React.useState(false);
  const wrapper = React.useRef<HTMLDivElement>(null);

  const load = React.useCallback(() => {
    loadEmojiKit().then(setKit, () => setOpenWhenLoaded(false));
  }, []);

  React.useEffect(() => {
    if (!kit || !openWhenLoaded) return;
    setOpenWhenLoaded(false);
    wrapper.current?.querySelector<HTMLButtonElement>(SDK_BUTTON)?.click();
  }, [kit, openWhenLoaded]);

  if (kit) {
    return (
      <div ref={wrapper} className="contents" data-testid="emoji-picker-loaded">
        <kit.EmojiPicker
          pickerProps={emojiMartProps(kit, language, resolvedTheme === 'dark' ? 'dark' : 'light')}
        />
      </div>
    );
  }
  return (
    <div className="str-chat__message-textarea-emoji-picker">
      <Button
        appearance="ghost"
        aria-busy={openWhenLoaded || undefined}
        aria-expanded={false}
        aria-label={t('aria/Emoji picker')}
        circular
        className="str-chat__emoji-picker-button"
        onClick={() => {
          setOpenWhenLoaded(true);
          load();
        }}
        onFocus={load}
        onPointerEnter={load}
        size="sm"
        type="button"
        variant="secondary"
      >
        {IconEmoji ? <IconEmoji /> : null}
      </Button>
    </div>
  );
}
