import { join } from 'node:path';
import { expect, request, type APIRequestContext, type Locator, type Page } from '@playwright/test';

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  tablet: { width: 900, height: 800 },
  mobile: { width: 375, height: 740 },
} as const;

export const ADMIN = { email: 'admin@daohuu.local', password: 'tutien-admin-2026' };

const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

/** Saves `<name>-<width>.png` under test-results/screenshots/ (not committed). */
export async function snap(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`) });
}

let counter = 0;

export interface Cultivator {
  daoHieu: string;
  email: string;
  password: string;
}

/** A cultivator nobody has used yet in this run (the server keeps one database per run). */
export function newCultivator(prefix = 'Đạo hữu'): Cultivator {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return {
    daoHieu: `${prefix} ${tag.slice(-6)}`,
    email: `tu-si-${tag}@example.com`,
    password: 'mat-khau-tu-tien',
  };
}

function originHeaders(baseURL: string): Record<string, string> {
  return { Origin: new URL(baseURL).origin };
}

/** Signs up through the real server's better-auth endpoint; the cookies land in `api`'s jar. */
export async function signUpViaApi(api: APIRequestContext, baseURL: string, who: Cultivator) {
  const response = await api.post('/api/auth/sign-up/email', {
    data: { email: who.email, password: who.password, name: who.daoHieu },
    headers: originHeaders(baseURL),
  });
  expect(response.status(), await response.text()).toBe(200);
}

export async function signInViaApi(
  api: APIRequestContext,
  baseURL: string,
  who: { email: string; password: string },
) {
  const response = await api.post('/api/auth/sign-in/email', {
    data: { email: who.email, password: who.password },
    headers: originHeaders(baseURL),
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Registers a cultivator without touching the browser's session. */
export async function registerElsewhere(baseURL: string, who: Cultivator): Promise<void> {
  const api = await request.newContext({ baseURL });
  try {
    await signUpViaApi(api, baseURL, who);
  } finally {
    await api.dispose();
  }
}

export function desktopSidebar(page: Page): Locator {
  return page.locator('[data-slot="sidebar-container"]');
}

export function mobileSheet(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Sidebar' });
}

export function sidebarTrigger(page: Page): Locator {
  return page.locator('[data-slot="sidebar-trigger"]');
}

export function sidebarFooter(page: Page): Locator {
  return page.locator('[data-slot="sidebar-footer"]');
}

export async function widthOf(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('The element is not rendered.');
  return box.width;
}

/** Waits until the element settles at `width` (the sidebar animates its width). */
export async function expectWidth(locator: Locator, width: number): Promise<void> {
  await expect.poll(() => widthOf(locator)).toBe(width);
}
