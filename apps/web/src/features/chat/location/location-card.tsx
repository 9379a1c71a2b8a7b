import { ExternalLinkIcon, MapPinIcon } from 'lucide-react';
import * as React from 'react';
import type { SharedLocationResponse } from 'stream-chat';
import { useChatContext, useTranslationContext, type GeolocationProps } from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';
import { LocationMap } from './location-map';
import { formatCoordinates, openStreetMapHref, remainingMs } from './map-link';

// The remaining time is shown in minutes; refreshing more often would change nothing on screen.
const TICK_MS = 15_000;

/**
 * The current time for a live location's countdown: refreshed every TICK_MS, right after the end time changes
 * (sharing stopped early) and exactly when it passes.
 */
function useNow(endAt: string | undefined): number {
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    if (!endAt) return;
    const refresh = () => setNow(Date.now());
    const soon = setTimeout(refresh, 0);
    const atEnd = setTimeout(refresh, Math.max(0, Date.parse(endAt) - Date.now()));
    const ticks = setInterval(refresh, TICK_MS);
    return () => {
      clearTimeout(soon);
      clearTimeout(atEnd);
      clearInterval(ticks);
    };
  }, [endAt]);
  return now;
}

/**
 * The newest version of a shared location. stream-chat-react re-renders a message only when fields such as its
 * text or updated_at change, and a live-location update (or a stop) changes only message.shared_location, so the
 * card follows message.updated events itself and keeps whichever version was updated last.
 */
function useLatestLocation(given: SharedLocationResponse): SharedLocationResponse {
  const { client } = useChatContext();
  const [pushed, setPushed] = React.useState<SharedLocationResponse | null>(null);
  const messageId = given.message_id;
  React.useEffect(() => {
    const subscription = client.on('message.updated', (event) => {
      const next = event.message?.shared_location;
      if (event.message?.id === messageId && next) setPushed(next);
    });
    return () => subscription.unsubscribe();
  }, [client, messageId]);
  if (!pushed || pushed.message_id !== messageId) return given;
  return Date.parse(pushed.updated_at) >= Date.parse(given.updated_at) ? pushed : given;
}

/**
 * A shared location in the message list, in place of stream-chat-react's map placeholder: the coordinates, a small
 * map when its tiles load, for a live location the time left (and "Dừng chia sẻ" for its owner), and a link that opens the point on OpenStreetMap.
 * Live updates arrive as message updates, so the coordinates follow the sharer.
 */
export function LocationCard({ location: given }: GeolocationProps) {
  const { client, channel } = useChatContext();
  const location = useLatestLocation(given);
  const { t } = useTranslationContext();
  const appT = useT();
  const isLive = Boolean(location.end_at);
  const now = useNow(location.end_at);
  const left = remainingMs(location.end_at, now);
  const ended = left === 0;
  const isMine = location.user_id === client.userID;
  const coordinates = formatCoordinates(location.latitude, location.longitude);

  let status: React.ReactNode;
  if (!isLive) status = t('Current location');
  else if (ended) status = t('Location sharing ended');
  else {
    status = (
      <>
        {appT('chat.location.liveStatus', {
          live: t('Live location'),
          left: t('duration/Share Location', { milliseconds: left }),
        })}
      </>
    );
  }

  return (
    <div className="flex min-w-56 flex-col gap-2 p-3" data-testid="location-card">
      <div className="flex items-center gap-2 font-medium">
        <MapPinIcon aria-hidden="true" className="size-4 shrink-0" />
        <span data-testid="location-coordinates">
          {t('Location: {{ coordinates }}', { coordinates })}
        </span>
      </div>
      <LocationMap latitude={location.latitude} longitude={location.longitude} />
      <p className="text-muted-foreground text-sm" data-testid="location-status">
        {status}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <a
          href={openStreetMapHref(location.latitude, location.longitude)}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 text-sm underline underline-offset-2"
        >
          {t('Open location in a map')}
          <ExternalLinkIcon aria-hidden="true" className="size-3.5" />
        </a>
        {isLive && !ended && isMine && channel ? (
          <Button
            size="sm"
            variant="outline"
            onClick={() => void channel.stopLiveLocationSharing(location)}
          >
            {t('Stop sharing')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
