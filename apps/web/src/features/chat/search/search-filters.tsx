import { FileIcon, HashIcon, PinIcon } from 'lucide-react';
import * as React from 'react';
import { useChatContext, useTranslationContext } from 'stream-chat-react';
import { cn } from '@/lib/utils';
import type { MessageSearchFilters } from './message-filters';

function FilterToggle({
  pressed,
  onToggle,
  icon: Icon,
  children,
}: {
  pressed: boolean;
  onToggle: () => void;
  icon: React.ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onToggle}
      className={cn(
        'inline-flex h-8 items-center gap-1.5 rounded-full border px-3 text-xs font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-hidden',
        pressed
          ? 'border-gold/60 bg-gold/15 text-gold-strong'
          : 'border-border text-muted-foreground hover:bg-muted',
      )}
    >
      <Icon className="size-3.5" aria-hidden />
      {children}
    </button>
  );
}

/** The people a message search can be narrowed to: the cultivator, then the open channel's members. */
function useSenderOptions(): { id: string; name: string }[] {
  const { client, channel } = useChatContext();
  const myId = client.userID;
  return React.useMemo(() => {
    const members = Object.values(channel?.state.members ?? {})
      .map((member) => member.user)
      .filter((user) => user && user.id !== myId)
      .map((user) => ({ id: user?.id ?? '', name: user?.name || user?.id || '' }))
      .sort((a, b) => a.name.localeCompare(b.name, 'vi'));
    return members.slice(0, 50);
  }, [channel, myId]);
}

/** "Trong kênh này", "Người gửi", "Có tệp", "Đã ghim": the filters of a message search. */
export function MessageSearchFilterBar({
  filters,
  onChange,
}: {
  filters: MessageSearchFilters;
  onChange: (next: MessageSearchFilters) => void;
}) {
  const { client, channel } = useChatContext();
  const { t } = useTranslationContext();
  const senders = useSenderOptions();
  const openCid = channel?.cid ?? null;
  return (
    <div
      role="group"
      aria-label={t('Message filters')}
      className="flex flex-wrap items-center gap-2"
    >
      {openCid ? (
        <FilterToggle
          icon={HashIcon}
          pressed={filters.channelCid === openCid}
          onToggle={() =>
            onChange({ ...filters, channelCid: filters.channelCid === openCid ? null : openCid })
          }
        >
          {t('In this channel')}
        </FilterToggle>
      ) : null}
      <FilterToggle
        icon={FileIcon}
        pressed={filters.withFiles}
        onToggle={() => onChange({ ...filters, withFiles: !filters.withFiles })}
      >
        {t('With files')}
      </FilterToggle>
      <FilterToggle
        icon={PinIcon}
        pressed={filters.pinned}
        onToggle={() => onChange({ ...filters, pinned: !filters.pinned })}
      >
        {t('Pinned only')}
      </FilterToggle>
      <label className="inline-flex items-center gap-1.5 text-xs text-muted-foreground">
        {t('Sender')}
        <select
          className="h-8 max-w-40 rounded-full border border-border bg-background px-2 text-xs text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-hidden"
          value={filters.fromUserId ?? ''}
          onChange={(event) => onChange({ ...filters, fromUserId: event.target.value || null })}
        >
          <option value="">{t('Anyone')}</option>
          {client.userID ? <option value={client.userID}>{t('Me')}</option> : null}
          {senders.map((sender) => (
            <option key={sender.id} value={sender.id}>
              {sender.name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
