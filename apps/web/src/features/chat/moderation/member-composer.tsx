import {
  MessageComposerUI,
  useChannelStateContext,
  useChatContext,
  useCooldownRemaining,
} from 'stream-chat-react';
import { useT } from '@/i18n';
import { FailedLinkPreviewOutsideSdk } from '../attachments/composer-link-previews';
import { BanNotice } from './ban-notice';
import { useOwnBan } from './use-own-ban';

/** The SDK's composer, or the ban notice while the signed-in user may not write here (channel and thread). */
export function MemberComposer() {
  const { client } = useChatContext();
  const { channel } = useChannelStateContext();
  const ban = useOwnBan(client, channel);
  if (ban) return <BanNotice ban={ban} />;
  return (
    <>
      <FailedLinkPreviewOutsideSdk />
      <MessageComposerUI />
    </>
  );
}

/** Slow mode's countdown in the send button's place, said in Vietnamese to screen readers. */
export function SlowModeCountdown() {
  const seconds = useCooldownRemaining();
  const t = useT();
  const label = t('chat.message.slowMode', { count: seconds });
  return (
    <div
      className="str-chat__message-composer-cooldown"
      data-testid="cooldown-timer"
      role="timer"
      aria-label={label}
      title={label}
    >
      {seconds}
    </div>
  );
}
