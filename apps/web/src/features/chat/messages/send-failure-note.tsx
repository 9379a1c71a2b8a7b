import { CircleAlertIcon, RotateCwIcon } from 'lucide-react';
import * as React from 'react';
import type { Channel, LocalMessage, StreamChat } from 'stream-chat';
import {
  useChannelStateContext,
  useChatContext,
  useCooldownRemaining,
  useMessageContext,
} from 'stream-chat-react';
import { useT } from '@/i18n';
import { banFromUser, type OwnBan } from '../moderation/own-ban';
import { useOwnBan } from '../moderation/use-own-ban';
import { describeErrorMessage, describeSendFailure, type SendFailure } from './send-failure';

/** A message the server refused: failed on send, or Stream's `type: 'error'` answer (a frozen channel). */
export function isRefusedMessage(message: LocalMessage): boolean {
  return (
    message.status === 'failed' ||
    (message.type === 'error' && describeErrorMessage(message.text) !== undefined)
  );
}

/**
 * The ban behind a "banned" refusal when no event told the app about it (e.g. the tab was asleep when it came):
 * the app-wide one from the user's own record, else this channel's from the membership.
 */
async function lookUpOwnBan(client: StreamChat, channel: Channel): Promise<OwnBan | null> {
  const me = client.userID;
  if (!me) return null;
  const { users } = await client.queryUsers({ id: { $eq: me } });
  const appBan = banFromUser(users[0]);
  if (appBan) return appBan;
  const { members } = await channel.queryMembers({ user_id: me });
  return banFromUser(members[0] as Record<string, unknown> | undefined) ?? null;
}

/** The ban the app knows of, or the one looked up once when a send was refused for a ban nobody announced. */
function useBanForRefusal(banned: boolean): OwnBan | null {
  const { client } = useChatContext();
  const { channel } = useChannelStateContext();
  const known = useOwnBan(client, channel);
  const [looked, setLooked] = React.useState<OwnBan | null>(null);
  React.useEffect(() => {
    if (!banned || known) return undefined;
    let live = true;
    lookUpOwnBan(client, channel).then(
      (ban) => live && setLooked(ban),
      // Without the look-up the note still says the user is banned, only not until when.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [banned, known, client, channel]);
  return known ?? looked;
}

function useSendFailure(message: LocalMessage): SendFailure {
  const cooldownRemaining = useCooldownRemaining();
  const first = describeSendFailure(message.error);
  const ban = useBanForRefusal(first.kind === 'banned');
  if (message.type === 'error') return describeErrorMessage(message.text) ?? first;
  return describeSendFailure(message.error, { ban, cooldownRemaining });
}

/**
 * Under a refused message: why, in Vietnamese, and the SDK's resend where sending again may work (slow mode over,
 * connection back, rate limit lifted). A send lost to the connection just reads "Chưa gửi được · Thử lại": the
 * outbox (../outbox) sends it by itself when the connection returns. stream-chat-react alone shows only a red badge.
 */
export function SendFailureNote({ message }: { message: LocalMessage }) {
  const { handleRetry } = useMessageContext();
  const t = useT();
  const failure = useSendFailure(message);
  const canRetry = failure.retryable && message.status === 'failed';
  const offline = failure.kind === 'network';
  return (
    <div
      // Own messages only: the note sits under the bubble, on the right like it.
      className="my-1 flex max-w-full flex-wrap items-center justify-end gap-x-1.5 gap-y-1 justify-self-end text-right text-xs text-destructive [grid-area:custom-metadata]"
      data-testid="send-failure"
      data-kind={failure.kind}
      role="alert"
    >
      <CircleAlertIcon className="size-3.5 shrink-0" aria-hidden="true" />
      <span>{failure.text}</span>
      {canRetry && offline ? <span aria-hidden="true">·</span> : null}
      {canRetry ? (
        <button
          type="button"
          title={offline ? t('chat.send.autoResend') : undefined}
          className="inline-flex items-center gap-1 rounded-sm px-1 font-medium underline underline-offset-2 hover:text-destructive/80 focus-visible:outline-2 focus-visible:outline-ring"
          onClick={() => handleRetry(message)}
        >
          <RotateCwIcon className="size-3.5" aria-hidden="true" />
          {offline ? t('common.retry') : t('chat.send.resend')}
        </button>
      ) : null}
    </div>
  );
}
