import { LinkPreviewStatus, type LinkPreview } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { composerPreviews } from './composer-previews';

const link = (url: string, status: LinkPreviewStatus): LinkPreview => ({
  og_scrape_url: url,
  status,
});

describe('the link previews the composer shows', () => {
  it('shows loading, loaded and failed previews and hides pending and dismissed ones', () => {
    const shown = composerPreviews([
      link('https://a.vn', LinkPreviewStatus.PENDING),
      link('https://b.vn', LinkPreviewStatus.LOADING),
      link('https://c.vn', LinkPreviewStatus.DISMISSED),
      link('https://d.vn', LinkPreviewStatus.LOADED),
    ]);
    expect(shown.map((preview) => [preview.state, preview.link.og_scrape_url])).toEqual([
      ['loading', 'https://b.vn'],
      ['loaded', 'https://d.vn'],
    ]);
  });

  it('puts a link that could not be previewed after one that could', () => {
    const shown = composerPreviews([
      link('https://hong.vn', LinkPreviewStatus.FAILED),
      link('https://tot.vn', LinkPreviewStatus.LOADED),
    ]);
    expect(shown.map((preview) => preview.state)).toEqual(['loaded', 'failed']);
  });

  it('shows nothing when every preview was dismissed', () => {
    expect(composerPreviews([link('https://a.vn', LinkPreviewStatus.DISMISSED)])).toEqual([]);
  });
});
