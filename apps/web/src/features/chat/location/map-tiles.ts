/** Square tiles of the Web Mercator ("slippy map") scheme every common tile server uses. */
export const TILE_SIZE = 256;

/** Web Mercator stops here: beyond it the projection runs off to infinity. */
const MAX_LATITUDE = 85.05112878;

export interface TilePoint {
  /** Tile column and row holding the point. */
  x: number;
  y: number;
  /** The point's pixel inside that tile, from its top-left corner. */
  offsetX: number;
  offsetY: number;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The point in world pixels at `zoom` (the whole world is TILE_SIZE · 2^zoom pixels wide). */
export function worldPixel(latitude: number, longitude: number, zoom: number) {
  const size = TILE_SIZE * 2 ** zoom;
  const lat = (clamp(latitude, -MAX_LATITUDE, MAX_LATITUDE) * Math.PI) / 180;
  // Longitudes outside ±180 wrap around the globe.
  const lng = ((((longitude + 180) % 360) + 360) % 360) - 180;
  const x = ((lng + 180) / 360) * size;
  const y = ((1 - Math.asinh(Math.tan(lat)) / Math.PI) / 2) * size;
  return { x: clamp(x, 0, size - 1e-9), y: clamp(y, 0, size - 1e-9) };
}

/** Which tile holds a point at `zoom`, and where in it. */
export function tileOf(latitude: number, longitude: number, zoom: number): TilePoint {
  const { x, y } = worldPixel(latitude, longitude, zoom);
  const tileX = Math.floor(x / TILE_SIZE);
  const tileY = Math.floor(y / TILE_SIZE);
  return {
    x: tileX,
    y: tileY,
    offsetX: Math.floor(x - tileX * TILE_SIZE),
    offsetY: Math.floor(y - tileY * TILE_SIZE),
  };
}

export function tileUrl(template: string, zoom: number, x: number, y: number): string {
  return template
    .replaceAll('{z}', String(zoom))
    .replaceAll('{x}', String(x))
    .replaceAll('{y}', String(y));
}

export interface PlacedTile {
  key: string;
  url: string;
  /** Where the tile's top-left corner sits in the view, in CSS pixels. */
  left: number;
  top: number;
}

/**
 * The tiles covering a `width` × `height` view centred on the point, each with its place in the view. Columns wrap
 * around the date line; rows beyond the poles are left empty.
 */
export function tilesAround(
  template: string,
  latitude: number,
  longitude: number,
  zoom: number,
  width: number,
  height: number,
): PlacedTile[] {
  const centre = worldPixel(latitude, longitude, zoom);
  const viewLeft = Math.round(centre.x - width / 2);
  const viewTop = Math.round(centre.y - height / 2);
  const count = 2 ** zoom;
  const tiles: PlacedTile[] = [];
  for (let row = Math.floor(viewTop / TILE_SIZE); row * TILE_SIZE < viewTop + height; row += 1) {
    if (row < 0 || row >= count) continue;
    for (let col = Math.floor(viewLeft / TILE_SIZE); col * TILE_SIZE < viewLeft + width; col += 1) {
      const wrapped = ((col % count) + count) % count;
      tiles.push({
        key: `${col}:${row}`,
        url: tileUrl(template, zoom, wrapped, row),
        left: col * TILE_SIZE - viewLeft,
        top: row * TILE_SIZE - viewTop,
      });
    }
  }
  return tiles;
}
