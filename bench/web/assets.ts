import { gzipSync } from 'node:zlib';
import type { Page, Response } from '@playwright/test';

export interface Asset {
  /** Path under the origin, e.g. /assets/index-abc.js. */
  path: string;
  kind: 'js' | 'css';
  rawBytes: number;
  gzipBytes: number;
  /** The body mentions stream-chat-react's class prefix: only the chat needs such a chunk. */
  streamChatReact: boolean;
  /** When the browser asked for it, in ms since the epoch (Playwright's request timing). */
  requestedAt: number;
}

function kindOf(response: Response): Asset['kind'] | undefined {
  const type = response.request().resourceType();
  const path = new URL(response.url()).pathname;
  if (type === 'script' || path.endsWith('.js')) return 'js';
  if (type === 'stylesheet' || path.endsWith('.css')) return 'css';
  return undefined;
}

/** Collects every JS and CSS response of `page` from now on; `done()` waits for the bodies. */
export function recordAssets(page: Page): { done(): Promise<Asset[]> } {
  const pending: Promise<Asset | undefined>[] = [];
  page.on('response', (response) => {
    const kind = kindOf(response);
    if (!kind || response.status() !== 200) return;
    pending.push(
      response.body().then(
        (body): Asset => ({
          path: new URL(response.url()).pathname,
          kind,
          rawBytes: body.length,
          gzipBytes: gzipSync(body, { level: 9 }).length,
          streamChatReact: body.includes('str-chat__'),
          requestedAt: response.request().timing().startTime,
        }),
        () => undefined,
      ),
    );
  });
  return {
    async done() {
      const assets = await Promise.all(pending);
      const unique = new Map<string, Asset>();
      for (const asset of assets) if (asset) unique.set(asset.path, asset);
      return [...unique.values()].sort((a, b) => a.path.localeCompare(b.path));
    },
  };
}

export interface AssetTotals {
  jsRaw: number;
  jsGzip: number;
  cssRaw: number;
  cssGzip: number;
}

export function totals(assets: Asset[]): AssetTotals {
  const sum = (kind: Asset['kind'], key: 'rawBytes' | 'gzipBytes') =>
    assets.filter((asset) => asset.kind === kind).reduce((total, asset) => total + asset[key], 0);
  return {
    jsRaw: sum('js', 'rawBytes'),
    jsGzip: sum('js', 'gzipBytes'),
    cssRaw: sum('css', 'rawBytes'),
    cssGzip: sum('css', 'gzipBytes'),
  };
}
