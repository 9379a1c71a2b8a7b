/**
 * Where the small map under a shared location gets its tiles: any server speaking the usual `{z}/{x}/{y}` scheme.
 * Set VITE_MAP_TILE_URL at build time to use another one (a self-hosted tile server, say). The page's
 * Content-Security-Policy admits images from any https origin (apps/server/src/http/security-headers.ts), so an
 * https tile server needs no server change; a plain-http one would be blocked there.
 */
export const MAP_TILE_URL: string =
  import.meta.env.VITE_MAP_TILE_URL || 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** Shown on the map, as the tiles' licence asks. */
export const MAP_TILE_ATTRIBUTION: string =
  import.meta.env.VITE_MAP_TILE_ATTRIBUTION || '© OpenStreetMap';

export const MAP_TILE_ATTRIBUTION_HREF: string =
  import.meta.env.VITE_MAP_TILE_ATTRIBUTION_HREF || 'https://www.openstreetmap.org/copyright';
