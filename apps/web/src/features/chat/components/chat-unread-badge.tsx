import { cn } from '@/lib/utils';
import { useChatSession } from '../session/chat-session';
import { describeUnreadCount, formatUnreadCount } from '../utils/unread-count';

/**
 * The total unread count on the sidebar's "Trò chuyện" item: a number beside the label, a dot on the icon when the
 * sidebar is collapsed. Renders nothing when everything is read.
 */
export function ChatUnreadBadge({ className }: { className?: string }) {
  const { unreadCount } = useChatSession();
  const text = formatUnreadCount(unreadCount);
  if (text === null) return null;
  return (
    <span
      data-testid="chat-unread-badge"
      aria-label={describeUnreadCount(unreadCount)}
      className={cn(
        'pointer-events-none absolute top-1.5 right-1.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-gold px-1.5 text-[0.6875rem] font-semibold text-gold-foreground tabular-nums ring-2 ring-sidebar',
        'group-data-[collapsible=icon]:top-0.5 group-data-[collapsible=icon]:right-0.5 group-data-[collapsible=icon]:size-2.5 group-data-[collapsible=icon]:min-w-0 group-data-[collapsible=icon]:p-0 group-data-[collapsible=icon]:text-[0px]',
        className,
      )}
    >
      {text}
    </span>
  );
}
