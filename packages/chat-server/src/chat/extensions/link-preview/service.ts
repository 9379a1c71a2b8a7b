import { unfurl } from 'unfurl.js';
import type { ChatServerConfig } from '../../../config.ts';
import { chatError } from '../../../errors.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import { createGuardedFetch, LinkPreviewError } from './guarded-fetch.ts';
import { createLruCache, type LruCache } from './lru-cache.ts';
import { toLinkAttachment, type PageMetadata } from './to-attachment.ts';

export interface LinkPreviewService {
  /** GET /og: the link-preview attachment for one URL, or a code 4 error saying why there is none. */
  preview(url: string): Promise<JsonObject>;
  /** Enrichment on send: appends a preview of the first URL in the text unless one is already attached. */
  enrich(text: string, attachments: unknown[]): Promise<unknown[]>;
}

/** linkify's rule as the client applies it: a hostname with a top-level domain of at least 2 letters (docs/product-rules.md §6). */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/gi;
const PREVIEWABLE_HOST = /^[a-zA-Z0-9-.]+\.[a-zA-Z]{2,}$/;
const FAILURE_TTL_MS = 60_000;

function imageAttachment(url: string): JsonObject {
  return { type: 'image', og_scrape_url: url, title_link: url, image_url: url, thumb_url: url };
}

type Outcome = { ok: true; attachment: JsonObject } | { ok: false; reason: string };

type LinkPreviewConfig = ChatServerConfig['linkPreview'];

/** The service's state: its settings and the outcomes of recent scrapes, failures included. */
interface PreviewContext {
  config: LinkPreviewConfig;
  cache: LruCache<Promise<Outcome>>;
}

async function scrape(config: LinkPreviewConfig, url: string): Promise<Outcome> {
  const signal = AbortSignal.timeout(config.timeoutMs);
  const guarded = createGuardedFetch(
    {
      allowHosts: config.allowHosts,
      maxBytes: config.maxBytes,
      maxRedirects: config.maxRedirects,
    },
    signal,
  );
  let pageType = '';
  const fetch = async (target: string) => {
    const response = await guarded(target);
    if (target === url) pageType = response.headers.get('content-type') ?? '';
    return response;
  };
  try {
    const meta = (await unfurl(url, { fetch, oembed: true })) as PageMetadata;
    return { ok: true, attachment: toLinkAttachment(url, meta) };
  } catch (error) {
    // A link straight to an image previews as that image (its bytes are never read).
    if (/^image\//i.test(pageType)) return { ok: true, attachment: imageAttachment(url) };
    if (error instanceof LinkPreviewError) return { ok: false, reason: error.message };
    if (signal.aborted) return { ok: false, reason: 'the page did not answer in time' };
    return { ok: false, reason: 'the page could not be previewed' };
  }
}

function outcome({ config, cache }: PreviewContext, url: string): Promise<Outcome> {
  const cached = cache.get(url);
  if (cached) return cached;
  const pending = scrape(config, url);
  cache.set(url, pending, config.cacheTtlMs);
  void pending.then((result) => {
    if (!result.ok) cache.set(url, pending, FAILURE_TTL_MS);
  });
  return pending;
}

function parse(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw chatError.input('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw chatError.input('url must be an absolute http or https URL');
  url.hash = '';
  return url.href;
}

async function preview(context: PreviewContext, raw: string): Promise<JsonObject> {
  const result = await outcome(context, parse(raw));
  if (!result.ok) throw chatError.input(`could not preview the URL: ${result.reason}`);
  return result.attachment;
}

/** The first URL in the text the client would link, normalized, or undefined when there is none. */
function firstPreviewableURL(config: LinkPreviewConfig, text: string): string | undefined {
  for (const match of text.matchAll(URL_IN_TEXT)) {
    try {
      const parsed = new URL(match[0].replace(/[.,;:!?)\]]+$/, ''));
      const allowlisted = config.allowHosts.includes(parsed.host);
      if (!PREVIEWABLE_HOST.test(parsed.hostname) && !allowlisted) continue;
      return parse(parsed.href);
    } catch {
      continue;
    }
  }
  return undefined;
}

async function enrich(
  context: PreviewContext,
  text: string,
  attachments: unknown[],
): Promise<unknown[]> {
  if (attachments.some((a) => isPlainObject(a) && a.og_scrape_url)) return attachments;
  const url = firstPreviewableURL(context.config, text);
  if (url === undefined) return attachments;
  const result = await outcome(context, url);
  return result.ok ? [...attachments, result.attachment] : attachments;
}

export function createLinkPreviewService(config: LinkPreviewConfig): LinkPreviewService {
  const context: PreviewContext = { config, cache: createLruCache(config.cacheSize) };
  return {
    preview: (raw) => preview(context, raw),
    enrich: (text, attachments) => enrich(context, text, attachments),
  };
}
