import { LoaderCircleIcon } from 'lucide-react';
import type * as React from 'react';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';

/*
 * What the chat shows before its screen's code has arrived: the route's Suspense fallback lives in the app's entry,
 * so this file stays small (the open chat's own states are in chat-screen-states.tsx).
 */

/** A centred message inside a chat panel: loading, empty, or failed. */
export function ChatPanelState({
  icon: Icon,
  title,
  description,
  children,
  tone = 'default',
  spinning = false,
  className,
}: {
  icon: React.ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
  title: string;
  description?: React.ReactNode;
  children?: React.ReactNode;
  tone?: 'default' | 'warning';
  spinning?: boolean;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex h-full min-h-48 flex-col items-center justify-center gap-3 p-6 text-center',
        className,
      )}
      role={tone === 'warning' ? 'alert' : 'status'}
    >
      <span
        className={cn(
          'flex size-12 items-center justify-center rounded-full ring-1',
          tone === 'warning'
            ? 'bg-warning/12 text-warning-strong ring-warning/40'
            : 'bg-gold/12 text-gold-strong ring-gold/40',
        )}
      >
        <Icon className={cn('size-5', spinning && 'animate-spin')} aria-hidden />
      </span>
      <p className="font-display text-lg font-semibold">{title}</p>
      {description ? <p className="max-w-sm text-sm text-muted-foreground">{description}</p> : null}
      {children ? <div className="mt-1 flex flex-wrap justify-center gap-2">{children}</div> : null}
    </div>
  );
}

export function ChatConnecting() {
  const t = useT();
  return (
    <ChatPanelState
      icon={LoaderCircleIcon}
      spinning
      title={t('chat.states.connectingTitle')}
      description={t('chat.states.connectingDescription')}
    />
  );
}

/** The chat frame while the chat module itself is still loading (the route's Suspense fallback). */
export function ChatConnectingFrame() {
  return (
    <section className="dh-chat-frame flex items-center justify-center">
      <ChatConnecting />
    </section>
  );
}
