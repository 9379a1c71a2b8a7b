import * as React from 'react';
import {
  TranslationProvider,
  useTranslationContext,
  type ContextMenuItemProps,
  type TranslationContextValue,
} from 'stream-chat-react';

/**
 * The SDK labels muting a message's author and muting a channel (channel list) with the same keys, "Mute" and
 * "Unmute". In the message menu they mean the person, so they are read as "Mute user" / "Unmute user" there
 * ("Tắt thông báo người này"), and "Mute" alone can say "kênh".
 */
const PERSON_KEYS: Record<string, string> = { Mute: 'Mute user', Unmute: 'Unmute user' };

export function personMuteTranslation(context: TranslationContextValue): TranslationContextValue {
  const t = ((key: string, options?: unknown) =>
    context.t(PERSON_KEYS[key] ?? key, options as never)) as TranslationContextValue['t'];
  return { ...context, t };
}

/** Wraps the SDK's "mute" message action so its label names the person. */
export function withPersonMuteLabel(
  Action: React.ComponentType<ContextMenuItemProps>,
): React.ComponentType<ContextMenuItemProps> {
  function MuteUserAction(props: ContextMenuItemProps) {
    const context = useTranslationContext();
    const value = React.useMemo(() => personMuteTranslation(context), [context]);
    return (
      <TranslationProvider value={value}>
        <Action {...props} />
      </TranslationProvider>
    );
  }
  return MuteUserAction;
}
