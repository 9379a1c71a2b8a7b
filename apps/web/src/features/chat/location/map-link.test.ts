import { describe, expect, it } from 'vitest';
import { formatCoordinates, openStreetMapHref, remainingMs } from './map-link';

describe('openStreetMapHref', () => {
  it('marks the point on openstreetmap.org', () => {
    expect(openStreetMapHref(21.0285, 105.8542)).toBe(
      'https://www.openstreetmap.org/?mlat=21.028500&mlon=105.854200#map=16/21.028500/105.854200',
    );
  });
});

describe('formatCoordinates', () => {
  it('shows latitude then longitude with six decimals', () => {
    expect(formatCoordinates(-33.8688, 151.2093)).toBe('-33.868800, 151.209300');
  });
});

describe('remainingMs', () => {
  const now = Date.parse('2026-06-01T12:00:00.000Z');

  it('has no remaining time for a one-off location', () => {
    expect(remainingMs(undefined, now)).toBeNull();
  });

  it('counts down to the end and stops at zero', () => {
    expect(remainingMs('2026-06-01T12:15:00.000Z', now)).toBe(15 * 60_000);
    expect(remainingMs('2026-06-01T11:00:00.000Z', now)).toBe(0);
  });
});
