import * as React from 'react';
import { useTranslationContext } from 'stream-chat-react';
import { cn } from '@/lib/utils';
import { presenceText, type PresenceSource } from './presence';

/** Re-renders every minute, so "Hoạt động 5 phút trước" keeps counting. */
function useNow(): number {
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** A presence dot and its words ("Đang trực tuyến", "Hoạt động 3 giờ trước", "Ngoại tuyến"). */
export function PresenceLine({
  user,
  className,
}: {
  user: PresenceSource | undefined;
  className?: string;
}) {
  const { t } = useTranslationContext();
  const { key, values } = presenceText(user, useNow());
  return (
    <span className={cn('dh-presence', className)} data-testid="presence-line">
      <PresenceDot online={!!user?.online} />
      {t(key, values)}
    </span>
  );
}

export function PresenceDot({ online }: { online: boolean }) {
  return (
    <span
      aria-hidden="true"
      className="dh-presence__dot"
      data-online={online || undefined}
      data-testid="presence-dot"
    />
  );
}
