import * as React from 'react';
import { useChannelStateContext } from 'stream-chat-react';
import { autosaveDrafts } from './draft-autosave';
import { loadDraft } from './load-draft';

/**
 * Keeps the open channel's composer and its server draft in step: loads the latest draft when the channel opens
 * and saves each local change. Renders nothing; it sits next to the channel's MessageComposer, which owns the
 * composer's subscriptions.
 */
export function ChannelDraftSync() {
  const { channel } = useChannelStateContext();
  const composer = channel.messageComposer;
  React.useEffect(() => {
    if (!composer.config.drafts.enabled) return;
    void loadDraft(composer);
    return autosaveDrafts(composer);
  }, [composer]);
  return null;
}
