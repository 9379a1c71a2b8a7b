/** Six decimals is about 10 cm: more would only be noise from the device. */
export function formatCoordinates(latitude: number, longitude: number): string {
  return `${latitude.toFixed(6)}, ${longitude.toFixed(6)}`;
}

/**
 * A plain OpenStreetMap link for a point. The app renders no map itself: there is no tile server offline, and a
 * link costs nothing until it is followed.
 */
export function openStreetMapHref(latitude: number, longitude: number): string {
  const lat = latitude.toFixed(6);
  const lon = longitude.toFixed(6);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
}

/** Milliseconds left until `endAt` (never negative); null for a one-off location. */
export function remainingMs(endAt: string | undefined, now: number): number | null {
  if (!endAt) return null;
  return Math.max(0, Date.parse(endAt) - now);
}
