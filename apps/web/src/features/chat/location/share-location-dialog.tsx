import {
  ShareLocationDialog as SdkShareLocationDialog,
  useTranslationContext,
  type ShareGeolocationMapProps,
  type ShareLocationDialogProps,
} from 'stream-chat-react';
import { useT } from '@/i18n';
import { formatCoordinates } from './map-link';

/** What the dialog shows in place of a map: the position about to be shared, or why there is none yet. */
function PositionPreview({
  latitude,
  longitude,
  loadingLocation,
  geolocationPositionError,
}: ShareGeolocationMapProps) {
  const { t } = useTranslationContext();
  const appT = useT();
  let text: string;
  if (latitude !== undefined && longitude !== undefined) {
    text = t('Location: {{ coordinates }}', {
      coordinates: formatCoordinates(latitude, longitude),
    });
  } else if (geolocationPositionError) text = t('Failed to retrieve location');
  else text = loadingLocation ? appT('chat.location.locating') : t('Failed to retrieve location');
  return (
    <p className="py-3 text-sm" data-testid="share-location-position">
      {text}
    </p>
  );
}

/** stream-chat-react's share-location dialog, showing the coordinates instead of a map (no tile server offline). */
export function ShareLocationDialog(props: ShareLocationDialogProps) {
  return <SdkShareLocationDialog {...props} GeolocationMap={PositionPreview} />;
}
