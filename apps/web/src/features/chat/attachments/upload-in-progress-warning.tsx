import * as React from 'react';
import { useChannelStateContext } from 'stream-chat-react';

/**
 * stream-chat-react ignores Enter while an upload is still running (its send button is simply disabled), so the
 * cultivator would not know why nothing happens. docs/product-rules.md §6 blocks the send with a warning: this raises
 * the composer's own "Wait until all attachments have uploaded" notification, which the chat toasts show in Vietnamese.
 * Renders nothing; it sits next to the channel's MessageComposer.
 */
export function UploadInProgressWarning() {
  const composer = useChannelStateContext().channel.messageComposer;
  React.useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
      const target = event.target;
      if (!(target instanceof HTMLTextAreaElement)) return;
      // The thread has a composer of its own; this one answers for the channel's.
      if (!target.closest('.str-chat__main-panel') || target.closest('.str-chat__thread-container'))
        return;
      if (composer.attachmentManager.uploadsInProgressCount === 0) return;
      composer.client.notifications.addWarning({
        message: 'Wait until all attachments have uploaded',
        origin: { emitter: 'MessageComposer', context: { composer } },
        options: { type: 'validation:attachment:upload:in-progress' },
      });
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [composer]);
  return null;
}
