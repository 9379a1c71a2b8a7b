import { StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { configureLinkPreviews } from './configure-link-previews';

function composerFor(client: StreamChat) {
  const channel = client.channel('messaging', 'dao-trang');
  // The composer only previews links when the channel type turns url_enrichment on, as ours do.
  channel.data = { ...channel.data, config: { url_enrichment: true } } as never;
  configureLinkPreviews(channel.messageComposer);
  return channel.messageComposer;
}

describe('configureLinkPreviews', () => {
  it('turns link previews on for a writer with the 1500 ms debounce', () => {
    const client = new StreamChat('khoa');
    client.userID = 'dao-huu';
    const composer = composerFor(client);
    expect(composer.config.linkPreviews.enabled).toBe(true);
    expect(composer.config.linkPreviews.debounceURLEnrichmentMs).toBe(1500);
  });

  it('sends skip_enrich_url once a preview was dismissed, even without other attachments', async () => {
    const client = new StreamChat('khoa');
    client.userID = 'dao-huu';
    const composer = composerFor(client);
    composer.textComposer.setText('xem https://dao-huu.vn nhé');
    // The preview the debounced enrichment would have loaded, then the user's dismissal of it.
    composer.linkPreviewsManager.state.partialNext({
      previews: new Map([
        ['https://dao-huu.vn', { og_scrape_url: 'https://dao-huu.vn', status: 'loaded' }],
      ]),
    } as never);
    composer.linkPreviewsManager.dismissPreview('https://dao-huu.vn');
    expect(composer.linkPreviewsManager.dismissedPreviews).toHaveLength(1);
    const composition = await composer.compose();
    expect(composition?.sendOptions.skip_enrich_url).toBe(true);
  });

  it('removes a link’s preview when the whole text is erased, keeping a dismissal', () => {
    const client = new StreamChat('khoa');
    client.userID = 'dao-huu';
    const composer = composerFor(client);
    const [shown, dismissed] = ['https://dao-huu.vn', 'https://tu-tien.vn'];
    composer.textComposer.setText(`xem ${shown} và ${dismissed}`);
    composer.linkPreviewsManager.state.partialNext({
      previews: new Map([
        [shown, { og_scrape_url: shown, status: 'failed' }],
        [dismissed, { og_scrape_url: dismissed, status: 'dismissed' }],
      ]),
    } as never);

    composer.textComposer.setText('');
    expect([...composer.linkPreviewsManager.previews.keys()]).toEqual([dismissed]);
  });

  it('leaves a message without dismissed previews to the server', async () => {
    const client = new StreamChat('khoa');
    client.userID = 'dao-huu';
    const composer = composerFor(client);
    composer.textComposer.setText('không có liên kết');
    const composition = await composer.compose();
    expect(composition?.sendOptions.skip_enrich_url).toBeUndefined();
  });

  it('keeps the previews of links still in the text when a draft echo re-initialises the composer', async () => {
    const client = new StreamChat('khoa');
    client.userID = 'dao-huu';
    const composer = composerFor(client);
    const url = 'https://dao-huu.vn';
    composer.textComposer.setText(`xem ${url}`);
    composer.linkPreviewsManager.state.partialNext({
      previews: new Map([[url, { og_scrape_url: url, status: 'dismissed' }]]),
    } as never);

    // What the composer does on draft.updated: the draft carries no link-preview attachment.
    composer.initState({
      composition: {
        channel_cid: 'messaging:dao-trang',
        created_at: '',
        message: { id: 'm', text: `xem ${url}` },
      },
    } as never);
    await Promise.resolve();
    expect(composer.linkPreviewsManager.dismissedPreviews.map((p) => p.og_scrape_url)).toEqual([
      url,
    ]);

    // Clearing the text after a send still removes it.
    composer.clear();
    await Promise.resolve();
    expect(composer.linkPreviewsManager.previews.size).toBe(0);
  });
});
