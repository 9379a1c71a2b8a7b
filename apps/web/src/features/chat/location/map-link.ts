/** Six decimals is about 10 cm: more would only be noise from the device. */
export function formatCoordinates(latitude: number, longitude: number): string {
  return `${latitude.toFixed(6)}, ${longitude.toFixed(6)}`;
}

/** An OpenStreetMap link for a point, to see it on a full map (the card itself shows only a small one). */
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
