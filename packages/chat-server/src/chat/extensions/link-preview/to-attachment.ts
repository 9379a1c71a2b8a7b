import type { JsonObject } from '../../core/json.ts';

/** The part of unfurl.js' result we read (its own type is not exported from the package root). */
export interface PageMetadata {
  title?: string;
  description?: string;
  author?: string;
  canonical_url?: string;
  open_graph?: {
    title?: string;
    description?: string;
    url?: string;
    site_name?: string;
    images?: { url?: string; secure_url?: string; width?: number; height?: number }[];
    videos?: { url?: string; stream?: string; width?: number; height?: number }[];
  };
  twitter_card?: {
    title?: string;
    description?: string;
    images?: { url?: string }[];
  };
  oEmbed?: {
    type?: string;
    title?: string;
    author_name?: string;
    author_url?: string;
    provider_name?: string;
    url?: string;
    thumbnails?: { url?: string }[];
  };
}

/** Only absolute http(s) links reach the client: a page must not smuggle javascript: URLs into a card. */
function httpURL(value: unknown, base: string): string | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function clip(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, max) : undefined;
}

/** The attachment fields stream-chat reads from GET /og and from an enriched message (`og_scrape_url` first). */
export function toLinkAttachment(url: string, meta: PageMetadata): JsonObject {
  const og = meta.open_graph ?? {};
  const twitter = meta.twitter_card ?? {};
  const oembed = meta.oEmbed ?? {};
  const image = og.images?.[0];
  const video = og.videos?.[0];
  const imageURL =
    httpURL(image?.secure_url ?? image?.url, url) ??
    httpURL(twitter.images?.[0]?.url, url) ??
    httpURL(oembed.thumbnails?.[0]?.url, url) ??
    (oembed.type === 'photo' ? httpURL(oembed.url, url) : undefined);
  const assetURL = httpURL(video?.stream ?? video?.url, url);
  const title = clip(og.title ?? twitter.title ?? oembed.title ?? meta.title, 300);
  const text = clip(og.description ?? twitter.description ?? meta.description, 1000);
  const attachment: JsonObject = {
    type: assetURL ? 'video' : title || text ? 'article' : 'image',
    og_scrape_url: url,
    title_link: httpURL(og.url ?? meta.canonical_url, url) ?? url,
  };
  if (title) attachment.title = title;
  if (text) attachment.text = text;
  if (imageURL) {
    attachment.image_url = imageURL;
    attachment.thumb_url = imageURL;
  }
  if (image?.width && image.height) {
    attachment.original_width = image.width;
    attachment.original_height = image.height;
  }
  if (assetURL) attachment.asset_url = assetURL;
  const author = clip(
    og.site_name ?? oembed.provider_name ?? oembed.author_name ?? meta.author,
    200,
  );
  if (author) attachment.author_name = author;
  const authorLink = httpURL(oembed.author_url, url);
  if (authorLink) attachment.author_link = authorLink;
  return attachment;
}
