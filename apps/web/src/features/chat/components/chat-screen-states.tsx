import { CircleAlertIcon, MessagesSquareIcon, RefreshCwIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';
import { useScreenContentShown } from '@/lib/idle';
import { ChatPanelState } from './chat-states';

export function ChatUnavailable({ onRetry }: { onRetry: () => void }) {
  const t = useT();
  useScreenContentShown();
  return (
    <ChatPanelState
      icon={CircleAlertIcon}
      tone="warning"
      title={t('chat.states.unavailableTitle')}
      description={t('chat.states.unavailableDescription')}
    >
      <Button variant="outline" onClick={onRetry}>
        <RefreshCwIcon aria-hidden="true" />
        {t('common.retry')}
      </Button>
    </ChatPanelState>
  );
}

/** `final`: no channel is on its way (none in the address); else this shows only until the channel opens. */
export function NoChannelSelected({ final }: { final: boolean }) {
  const t = useT();
  useScreenContentShown(final);
  return (
    <ChatPanelState
      icon={MessagesSquareIcon}
      title={t('chat.states.noChannelTitle')}
      description={t('chat.states.noChannelDescription')}
    />
  );
}
