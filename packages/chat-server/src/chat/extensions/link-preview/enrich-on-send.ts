import { parseArray } from '../../core/json.ts';
import type { BeforeMessageStored } from '../../core/extension-points.ts';
import type { LinkPreviewService } from './service.ts';

/** Stream's URL enrichment: a sent message with a link gets its preview attachment unless the client opted out. */
export function enrichOnSend(linkPreviews: LinkPreviewService): BeforeMessageStored {
  return async ({ access, row, system, skipEnrichUrl }) => {
    if (system || skipEnrichUrl || !access.type.config.url_enrichment || !row.text)
      return undefined;
    const attachments = parseArray(typeof row.attachments === 'string' ? row.attachments : '[]');
    const enriched = await linkPreviews.enrich(row.text, attachments);
    if (enriched !== attachments) row.attachments = JSON.stringify(enriched);
    return undefined;
  };
}
