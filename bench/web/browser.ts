import { chromium } from '@playwright/test';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { CHROMIUM_ARGS, FULL_BROWSER } from '../../apps/web/e2e/chromium.ts';
import { recordAssets } from './assets.ts';
import type { Asset } from './assets.ts';
import { PROBE_SCRIPT } from './page-probe.ts';
import type { ProbeMarks } from './page-probe.ts';

export const DEMO_ADMIN = { email: 'admin@daohuu.local', password: 'tutien-admin-2026' };
const MESSAGE_SELECTOR = '.str-chat__main-panel .str-chat__message';
const STEP_TIMEOUT_MS = 30_000;

// The full browser, as visitors run it: the headless shell the browser suite prefers would time a lighter one.
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: FULL_BROWSER, headless: true, args: CHROMIUM_ARGS });
}

export type Visitor = 'guest' | 'admin';

/** A fresh context (empty cache, no cookies); the admin signs in through the API before any navigation. */
async function freshContext(
  browser: Browser,
  baseUrl: string,
  visitor: Visitor,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    locale: 'vi-VN',
    viewport: { width: 1280, height: 800 },
  });
  if (visitor === 'admin') {
    const response = await context.request.post('/api/auth/sign-in/email', {
      data: DEMO_ADMIN,
      headers: { Origin: baseUrl },
    });
    if (response.status() !== 200) {
      await context.close();
      throw new Error(`demo admin sign-in answered ${response.status()}: ${await response.text()}`);
    }
  }
  return context;
}

async function settle(page: Page, path: string): Promise<void> {
  if (path.startsWith('/chat')) {
    await page
      .locator(MESSAGE_SELECTOR)
      .first()
      .waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
  }
  // The chat keeps a websocket open, which networkidle ignores; lazy chunks and their CSS have landed by then.
  await page.waitForLoadState('networkidle', { timeout: STEP_TIMEOUT_MS });
}

export interface PageLoad {
  path: string;
  visitor: Visitor;
  /** Every JS and CSS file of the visit, until network idle. */
  assets: Asset[];
  /**
   * The first load: the files asked for before the page's first content (the `h1` on `/`, the first message on
   * `/chat`) was visible or before `load`, whichever came later. What the app defers until after that (an idle
   * callback's import) is in `assets` only.
   */
  firstLoad: Asset[];
}

/** The epoch time (ms) of the later of the `load` event and the first content mark. */
async function firstContentAt(page: Page, mark: keyof ProbeMarks): Promise<number> {
  const markMs = await readMark(page, mark);
  const timing: unknown = await page.evaluate(
    `[performance.timeOrigin, performance.getEntriesByType('navigation')[0]?.loadEventStart ?? 0]`,
  );
  if (!Array.isArray(timing) || typeof markMs !== 'number') throw new Error('no page timing');
  const [origin, loadMs] = timing as [number, number];
  return origin + Math.max(markMs, loadMs);
}

/** Every JS and CSS response of one fresh load of `path`, until `load`, network idle and (on /chat) a message. */
export async function loadAssets(
  browser: Browser,
  baseUrl: string,
  path: string,
  visitor: Visitor,
): Promise<PageLoad> {
  const context = await freshContext(browser, baseUrl, visitor);
  try {
    await context.addInitScript({ content: PROBE_SCRIPT });
    const page = await context.newPage();
    const recorder = recordAssets(page);
    await page.goto(path, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS });
    await settle(page, path);
    const cutoff = await firstContentAt(page, path.startsWith('/chat') ? 'message' : 'heading');
    const assets = await recorder.done();
    return {
      path,
      visitor,
      assets,
      firstLoad: assets.filter((asset) => asset.requestedAt <= cutoff),
    };
  } finally {
    await context.close();
  }
}

/**
 * Polls the probe's mark. The app's Content-Security-Policy forbids eval, which `page.waitForFunction` relies on;
 * `page.evaluate` goes through the DevTools protocol instead. The mark holds the page's own timestamp, so the polling
 * interval does not change the figure.
 */
async function readMark(page: Page, mark: keyof ProbeMarks): Promise<unknown> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  const expression = `window.__daohuuBench ? window.__daohuuBench[${JSON.stringify(mark)}] : undefined`;
  while (Date.now() < deadline) {
    // Right after `commit` the document can still be swapped, which destroys the context: just ask again.
    const value: unknown = await page.evaluate(expression).catch(() => undefined);
    if (value !== undefined) return value;
    await page.waitForTimeout(20);
  }
  throw new Error(`the ${mark} mark did not appear within ${STEP_TIMEOUT_MS / 1000} s`);
}

/** Milliseconds from navigation start until `mark` is visible, in the page's clock, for one fresh load. */
export async function timeToVisible(
  browser: Browser,
  baseUrl: string,
  path: string,
  visitor: Visitor,
  mark: keyof ProbeMarks,
): Promise<number> {
  const context = await freshContext(browser, baseUrl, visitor);
  try {
    await context.addInitScript({ content: PROBE_SCRIPT });
    const page = await context.newPage();
    await page.goto(path, { waitUntil: 'commit', timeout: STEP_TIMEOUT_MS });
    const value = await readMark(page, mark);
    if (typeof value !== 'number') throw new Error(`no ${mark} mark on ${path}`);
    return value;
  } finally {
    await context.close();
  }
}
