import * as React from 'react';
import {
  defaultReactionOptions,
  useComponentContext,
  useDialogOnNearestManager,
  useMessageContext,
  useTranslationContext,
  type ReactionSelectorProps,
} from 'stream-chat-react';
import { useTheme } from '@/hooks/use-theme';
import { useChatLanguage } from '../language/chat-language';
import './emoji.css';
import { emojiMartProps } from './composer-emoji-picker';
import { reactionTypeForEmoji } from './emoji-reactions';
import { loadEmojiKit, loadedEmojiKit, type EmojiKit } from './load-emoji-kit';

/** emoji-mart's picker element, mounted once into a div (its props are read when it is built). */
function EmojiMartPicker({ kit, props }: { kit: EmojiKit; props: Record<string, unknown> }) {
  const host = React.useRef<HTMLDivElement>(null);
  const latest = React.useRef(props);
  latest.current = props;
  React.useEffect(() => {
    // The element keeps the callbacks it was built with: route the pick through the latest props.
    const onEmojiSelect = (emoji: unknown) =>
      (latest.current.onEmojiSelect as ((emoji: unknown) => void) | undefined)?.(emoji);
    const element = new kit.Picker({
      ...latest.current,
      onEmojiSelect,
      ref: host,
    }) as unknown as HTMLElement;
    return () => element.remove?.();
  }, [kit]);
  return <div ref={host} />;
}

/**
 * The reaction selector's "more" list (the "+" beside the six quick reactions): emoji-mart's full picker, downloaded
 * on first use. A pick is sent as an ordinary reaction, typed as reaction-options.ts's `everyEmojiReaction` expects,
 * so every client shows it.
 */
export function FullReactionPicker({ dialogId, handleReaction }: ReactionSelectorProps) {
  const { t } = useTranslationContext();
  // The app's chat language, not the SDK's `userLanguage` (which follows the browser).
  const [language] = useChatLanguage();
  const { resolvedTheme } = useTheme();
  const { reactionOptions = defaultReactionOptions } = useComponentContext();
  const message = useMessageContext();
  const { dialog } = useDialogOnNearestManager({ id: dialogId ?? '' });
  const [kit, setKit] = React.useState<EmojiKit | null>(loadedEmojiKit);
  const [failed, setFailed] = React.useState(false);

  React.useEffect(() => {
    if (kit) return;
    let live = true;
    loadEmojiKit().then(
      (loaded) => live && setKit(loaded),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [kit]);

  const react = handleReaction ?? message.handleReaction;
  const quick = Array.isArray(reactionOptions) ? {} : reactionOptions.quick;
  const onEmojiSelect = (emoji: { native: string }) => {
    void react(reactionTypeForEmoji(emoji.native, quick), undefined as never);
    dialog?.close();
  };

  if (failed) {
    return <p className="dh-emoji-status">{t('Could not load the emoji')}</p>;
  }
  if (!kit) {
    return (
      <p className="dh-emoji-status" role="status">
        {t('Loading the emoji…')}
      </p>
    );
  }
  return (
    <div data-testid="full-reaction-picker" aria-label={t('aria/Reaction list')} role="group">
      <EmojiMartPicker
        kit={kit}
        props={{
          ...emojiMartProps(kit, language, resolvedTheme === 'dark' ? 'dark' : 'light'),
          autoFocus: true,
          onEmojiSelect,
        }}
      />
    </div>
  );
}
