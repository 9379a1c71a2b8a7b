import { MapPinIcon } from 'lucide-react';
import * as React from 'react';
import { useT } from '@/i18n';
import { MAP_TILE_ATTRIBUTION, MAP_TILE_ATTRIBUTION_HREF, MAP_TILE_URL } from '@/config/map';
import { tilesAround } from './map-tiles';

const WIDTH = 256;
const HEIGHT = 144;
/** Streets and their names, without fetching more than four tiles. */
const ZOOM = 15;

/**
 * A small map centred on a shared location: the tile server's images in a plain grid with a pin on top, no map
 * library. If any tile fails to load (tile server unreachable, blocked, offline) the map steps aside and the card's
 * coordinates stand alone rather than a half-drawn map.
 */
export function LocationMap({ latitude, longitude }: { latitude: number; longitude: number }) {
  const t = useT();
  const tiles = React.useMemo(
    () => tilesAround(MAP_TILE_URL, latitude, longitude, ZOOM, WIDTH, HEIGHT),
    [latitude, longitude],
  );
  const [failed, setFailed] = React.useState(false);
  if (failed || tiles.length === 0) return null;
  return (
    <div
      className="relative overflow-hidden rounded-md border bg-muted"
      style={{ width: WIDTH, height: HEIGHT, maxWidth: '100%' }}
      data-testid="location-map"
      role="img"
      aria-label={t('chat.location.mapLabel')}
    >
      {tiles.map((tile) => (
        <img
          key={tile.key}
          src={tile.url}
          alt=""
          width={256}
          height={256}
          draggable={false}
          loading="lazy"
          // OpenStreetMap's tile policy asks for a Referer; the page's own policy sends none cross-origin.
          referrerPolicy="strict-origin-when-cross-origin"
          onError={() => setFailed(true)}
          className="pointer-events-none absolute max-w-none select-none"
          style={{ left: tile.left, top: tile.top }}
        />
      ))}
      <MapPinIcon
        aria-hidden="true"
        className="absolute size-7 -translate-x-1/2 -translate-y-full fill-destructive text-white drop-shadow"
        style={{ left: WIDTH / 2, top: HEIGHT / 2 }}
      />
      <a
        href={MAP_TILE_ATTRIBUTION_HREF}
        target="_blank"
        rel="noreferrer"
        className="absolute right-0 bottom-0 rounded-tl bg-background/80 px-1 text-[10px] leading-4 text-foreground"
      >
        {MAP_TILE_ATTRIBUTION}
      </a>
    </div>
  );
}
