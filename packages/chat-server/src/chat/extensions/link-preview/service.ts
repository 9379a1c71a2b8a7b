import { unfurl } from 'unfurl.js';
import type { ChatServerConfig } from '../../../config.ts';
import { chatError } from '../../../errors.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import { createGuardedFetch, LinkPreviewError } from './guarded-fetch.ts';
import { createLruCache } from './lru-cache.ts';
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

export function createLinkPreviewService(
  config: ChatServerConfig['linkPreview'],
): LinkPreviewService {
  const cache = createLruCache<Promise<Outcome>>(config.cacheSize);

  async function scrape(url: string): Promise<Outcome> {
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

  function outcome(url: string): Promise<Outcome> {
    const cached = cache.get(url);
    if (cached) return cached;
    const pending = scrape(url);
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

  return {
    async preview(raw) {
      const result = await outcome(parse(raw));
      if (!result.ok) throw chatError.input(`could not preview the URL: ${result.reason}`);
      return result.attachment;
    },

    async enrich(text, attachments) {
      if (attachments.some((a) => isPlainObject(a) && a.og_scrape_url)) return attachments;
      for (const match of text.matchAll(URL_IN_TEXT)) {
        let url: string;
        try {
          const parsed = new URL(match[0].replace(/[.,;:!?)\]]+$/, ''));
          const allowlisted = config.allowHosts.includes(parsed.host);
          if (!PREVIEWABLE_HOST.test(parsed.hostname) && !allowlisted) continue;
          url = parse(parsed.href);
        } catch {
          continue;
        }
        const result = await outcome(url);
        return result.ok ? [...attachments, result.attachment] : attachments;
      }
      return attachments;
    },
  };
}
