import type { WatchLocation } from 'stream-chat';

/**
 * The browser's position feed for stream-chat's live-location manager. stream-chat throttles what it sends (one
 * update every 3 s, docs/product-rules.md §6); a failed or refused position only means no update, the point stays as it
 * was.
 */
export const watchBrowserLocation: WatchLocation = (handler) => {
  if (typeof navigator === 'undefined' || !('geolocation' in navigator)) return () => {};
  const watchId = navigator.geolocation.watchPosition(
    (position) =>
      handler({ latitude: position.coords.latitude, longitude: position.coords.longitude }),
    (error) => console.warn('The live location could not be read.', error.message),
  );
  return () => navigator.geolocation.clearWatch(watchId);
};
