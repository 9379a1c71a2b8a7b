import type { Readable } from 'node:stream';
import sharp from 'sharp';

/** Raster types sharp decodes; a file declared as one of these must really be one (a "lying" type is refused). */
const DECODABLE = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/tiff',
]);

const FORMAT_MIME: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heif: 'image/avif',
  tiff: 'image/tiff',
};

export const THUMB_MIME = 'image/webp';
const THUMB_BOX = 400;

export function isDecodableImageType(mimeType: string): boolean {
  return DECODABLE.has(mimeType.toLowerCase());
}

export interface ProbedImage {
  width: number;
  height: number;
  /** The type the bytes really have (served instead of the declared one). */
  mimeType: string;
  thumb: Buffer;
}

/** Reads the real size and format and renders a thumbnail; undefined when the bytes are not an image sharp knows. */
export async function probeImage(content: Readable): Promise<ProbedImage | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk as Buffer);
  const input = Buffer.concat(chunks);
  try {
    const image = sharp(input, { failOn: 'error' });
    const meta = await image.metadata();
    const mimeType = meta.format ? FORMAT_MIME[meta.format] : undefined;
    if (!meta.width || !meta.height || !mimeType) return undefined;
    // autoOrient keeps portrait photos upright; the EXIF orientation also swaps the reported size.
    const rotated = (meta.orientation ?? 1) >= 5;
    const thumb = await sharp(input)
      .autoOrient()
      .resize(THUMB_BOX, THUMB_BOX, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    return {
      width: rotated ? meta.height : meta.width,
      height: rotated ? meta.width : meta.height,
      mimeType,
      thumb,
    };
  } catch {
    return undefined;
  }
}
