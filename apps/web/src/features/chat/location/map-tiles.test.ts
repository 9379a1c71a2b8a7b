import { describe, expect, it } from 'vitest';
import { TILE_SIZE, tileOf, tileUrl, tilesAround } from './map-tiles';

const OSM = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

describe('the tile holding a point', () => {
  it.each([
    [
      'the origin at zoom 0: the middle of the only tile',
      0,
      0,
      0,
      { x: 0, y: 0, offsetX: 128, offsetY: 128 },
    ],
    [
      'the origin at zoom 1: the corner of tile 1/1',
      0,
      0,
      1,
      { x: 1, y: 1, offsetX: 0, offsetY: 0 },
    ],
    [
      'Hoàn Kiếm, Hà Nội at zoom 15',
      21.0285,
      105.8542,
      15,
      { x: 26019, y: 14425, offsetX: 21, offsetY: 118 },
    ],
    [
      'Quận 1, TP.HCM at zoom 12',
      10.7769,
      106.7009,
      12,
      { x: 3262, y: 1924, offsetX: 4, offsetY: 167 },
    ],
    ['London at zoom 10', 51.5074, -0.1278, 10, { x: 511, y: 340, offsetX: 162, offsetY: 129 }],
    [
      'Sydney at zoom 8 (south and east)',
      -33.8688,
      151.2093,
      8,
      { x: 235, y: 153, offsetX: 134, offsetY: 159 },
    ],
    [
      'the date line from the west: the first column',
      0,
      -180,
      3,
      { x: 0, y: 4, offsetX: 0, offsetY: 0 },
    ],
    ['a longitude past 180 wraps around', 0, 190, 2, tileOf(0, -170, 2)],
    [
      'beyond the north pole: clamped to the top row',
      89.9,
      0,
      4,
      { x: 8, y: 0, offsetX: 0, offsetY: 0 },
    ],
    [
      'beyond the south pole: clamped to the last row',
      -89.9,
      0,
      4,
      { x: 8, y: 15, offsetX: 0, offsetY: 255 },
    ],
  ])('%s', (_name, latitude, longitude, zoom, expected) => {
    expect(tileOf(latitude, longitude, zoom)).toEqual(expected);
  });
});

describe('the tiles around a point', () => {
  it('fills the URL template', () => {
    expect(tileUrl(OSM, 15, 26019, 14425)).toBe(
      'https://tile.openstreetmap.org/15/26019/14425.png',
    );
  });

  it('covers the whole view with the point at its centre', () => {
    const width = 256;
    const height = 144;
    const tiles = tilesAround(OSM, 21.0285, 105.8542, 15, width, height);
    // The point sits at (21, 118) in tile 26019/14425; the view reaches one tile left of it.
    expect(tiles.map((tile) => tile.url)).toEqual([
      'https://tile.openstreetmap.org/15/26018/14425.png',
      'https://tile.openstreetmap.org/15/26019/14425.png',
    ]);
    // The point's pixel (21, 118 in its tile, before rounding) lands on the view's centre, within a pixel.
    const home = tiles[1] ?? { left: Number.NaN, top: Number.NaN };
    expect(Math.abs(home.left + 21 - width / 2)).toBeLessThanOrEqual(1);
    expect(Math.abs(home.top + 118 - height / 2)).toBeLessThanOrEqual(1);
    for (const tile of tiles) {
      expect(tile.left).toBeLessThan(width);
      expect(tile.left + TILE_SIZE).toBeGreaterThan(0);
      expect(tile.top).toBeLessThan(height);
      expect(tile.top + TILE_SIZE).toBeGreaterThan(0);
    }
  });

  it('wraps columns across the date line and leaves out rows beyond the poles', () => {
    const tiles = tilesAround(OSM, 85, 179.99, 2, 256, 256);
    const urls = tiles.map((tile) => tile.url);
    expect(urls).toContain('https://tile.openstreetmap.org/2/0/0.png');
    expect(urls).toContain('https://tile.openstreetmap.org/2/3/0.png');
    expect(urls.every((url) => !/\/-?\d+\/-\d+\.png$/.test(url))).toBe(true);
  });
});
