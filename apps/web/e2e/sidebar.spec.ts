import { expect, test, type Page } from '@playwright/test';
import {
  VIEWPORTS,
  desktopSidebar,
  expectWidth,
  mobileSheet,
  sidebarTrigger,
  snap,
  widthOf,
} from './support';

const COOKIE_MAX_AGE = 604_800;

declare global {
  interface Window {
    __cookieWrites: string[];
    __sidebarPaints: { state: string | null; width: number }[];
    __htmlStateBeforeReact: string | null | undefined;
    __ctrlBPrevented: boolean[];
  }
}

/**
 * Runs before any page script. Records (1) every document.cookie write, (2) the <html> sidebar state when
 * #root is parsed, i.e. after the inline script and before React, and (3) every width the desktop sidebar
 * takes from the moment React inserts it, measured synchronously after each DOM change and before paint.
 */
async function instrument(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__cookieWrites = [];
    window.__sidebarPaints = [];
    window.__htmlStateBeforeReact = undefined;
    const native = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    if (native?.get && native.set) {
      const { get, set } = native;
      Object.defineProperty(Document.prototype, 'cookie', {
        configurable: true,
        get() {
          return get.call(this);
        },
        set(value: string) {
          window.__cookieWrites.push(value);
          set.call(this, value);
        },
      });
    }
    const record = () => {
      if (window.__htmlStateBeforeReact === undefined && document.getElementById('root')) {
        window.__htmlStateBeforeReact = document.documentElement.getAttribute('data-sidebar-state');
      }
      const container = document.querySelector('[data-slot="sidebar-container"]');
      if (!container) return;
      const state = container.closest('[data-slot="sidebar"]')?.getAttribute('data-state') ?? null;
      const width = container.getBoundingClientRect().width;
      const last = window.__sidebarPaints.at(-1);
      if (!last || last.state !== state || last.width !== width) {
        window.__sidebarPaints.push({ state, width });
      }
    };
    new MutationObserver(record).observe(document, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['data-state'],
    });
  });
}

async function sidebarCookie(page: Page) {
  const cookies = await page.context().cookies();
  return cookies.find((cookie) => cookie.name === 'sidebar_state');
}

test.describe('desktop sidebar at 1280×800', () => {
  test.use({ viewport: VIEWPORTS.desktop });

  test('is 256px expanded and 48px collapsed, toggled by the button, Ctrl+B and the rail', async ({
    page,
  }) => {
    await instrument(page);
    await page.goto('/');
    const sidebar = desktopSidebar(page);
    await expectWidth(sidebar, 256);
    await expect(sidebarTrigger(page)).toHaveAccessibleName('Toggle Sidebar');
    await snap(page, 'home-guest');

    await sidebarTrigger(page).click();
    await expectWidth(sidebar, 48);
    await snap(page, 'sidebar-collapsed');

    // The shortcut works from anywhere and the browser's own Ctrl+B (bookmarks) is prevented.
    await page.evaluate(() => {
      window.__ctrlBPrevented = [];
      window.addEventListener('keydown', (event) => {
        // Read once every listener of this dispatch has run, whatever their order.
        if (event.key === 'b')
          setTimeout(() => window.__ctrlBPrevented.push(event.defaultPrevented));
      });
    });
    await page.locator('main').click({ position: { x: 600, y: 20 } });
    await page.keyboard.press('Control+b');
    await expectWidth(sidebar, 256);
    await page.keyboard.press('Control+b');
    await expectWidth(sidebar, 48);
    await expect.poll(() => page.evaluate(() => window.__ctrlBPrevented)).toEqual([true, true]);

    const rail = page.locator('[data-slot="sidebar-rail"]');
    await expect(rail).toHaveAccessibleName('Toggle Sidebar');
    await rail.click();
    await expectWidth(sidebar, 256);

    expect(await page.evaluate(() => window.__cookieWrites)).toEqual([
      'sidebar_state=false; path=/; max-age=604800',
      'sidebar_state=true; path=/; max-age=604800',
      'sidebar_state=false; path=/; max-age=604800',
      'sidebar_state=true; path=/; max-age=604800',
    ]);
  });

  test('stores sidebar_state in a cookie for path / for seven days and restores it with no flash', async ({
    page,
  }) => {
    await instrument(page);
    await page.goto('/canh-gioi');
    await expectWidth(desktopSidebar(page), 256);
    await page.keyboard.press('Control+b');
    await expectWidth(desktopSidebar(page), 48);

    const cookie = await sidebarCookie(page);
    expect(cookie).toMatchObject({ name: 'sidebar_state', value: 'false', path: '/' });
    const expectedExpiry = Date.now() / 1000 + COOKIE_MAX_AGE;
    expect(Math.abs((cookie?.expires ?? 0) - expectedExpiry)).toBeLessThan(300);

    await page.reload();
    await expectWidth(desktopSidebar(page), 48);
    // Before React ran, the inline script had already restored the state onto <html>…
    expect(await page.evaluate(() => window.__htmlStateBeforeReact)).toBe('collapsed');
    // …and from its very first frame the sidebar was 48px wide: it never flashed open.
    expect(await page.evaluate(() => window.__sidebarPaints)).toEqual([
      { state: 'collapsed', width: 48 },
    ]);
    await snap(page, 'realms-collapsed');
  });

  test('shows menu tooltips only while collapsed', async ({ page }) => {
    await page.goto('/');
    const item = page.locator('[data-slot="sidebar-container"]').getByRole('link', {
      name: 'Bảng cảnh giới',
    });

    // Tooltips work (the header trigger has one) but a menu item of the expanded sidebar shows none.
    await sidebarTrigger(page).hover();
    await expect(page.getByRole('tooltip')).toContainText('Thu gọn thanh bên');
    await page.mouse.move(700, 400, { steps: 5 });
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await item.hover();
    await expect(page.getByRole('tooltip')).toHaveCount(0);

    await page.keyboard.press('Control+b');
    await expectWidth(desktopSidebar(page), 48);
    await page.mouse.move(700, 400);
    await item.hover();
    await expect(page.getByRole('tooltip')).toHaveText('Bảng cảnh giới');
    await snap(page, 'sidebar-tooltip');
  });
});

test.describe('sidebar sheet under 992px', () => {
  test('at 900×800 is an 18rem sheet named "Sidebar" that closes when the window grows to desktop', async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.tablet);
    await page.goto('/');
    await expect(desktopSidebar(page)).toHaveCount(0);
    await expect(mobileSheet(page)).toHaveCount(0);
    await snap(page, 'home-guest');

    await sidebarTrigger(page).click();
    const sheet = mobileSheet(page);
    await expect(sheet).toBeVisible();
    await expect(sheet).toHaveAccessibleDescription('Displays the mobile sidebar.');
    await expectWidth(sheet, 288);

    // No tooltips in the sheet.
    await sheet.getByRole('link', { name: 'Bảng cảnh giới' }).hover();
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await snap(page, 'sheet-open');

    // The sheet never touches the desktop cookie.
    expect(await page.context().cookies()).toEqual([]);

    await page.setViewportSize(VIEWPORTS.desktop);
    await expect(mobileSheet(page)).toHaveCount(0);
    await expectWidth(desktopSidebar(page), 256);

    await page.setViewportSize(VIEWPORTS.tablet);
    await expect(desktopSidebar(page)).toHaveCount(0);
    await expect(mobileSheet(page)).toHaveCount(0);
  });

  test('at 375×740 opens with Ctrl+B, navigates, and closes on Escape', async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.mobile);
    await page.goto('/');
    await snap(page, 'home-guest');

    await page.keyboard.press('Control+b');
    const sheet = mobileSheet(page);
    await expect(sheet).toBeVisible();
    await expectWidth(sheet, 288);
    expect(await widthOf(sheet)).toBe(288);
    await expect(sheet).toHaveAccessibleDescription('Displays the mobile sidebar.');
    await snap(page, 'sheet-open');

    await sheet.getByRole('link', { name: 'Bảng cảnh giới' }).click();
    await expect(page).toHaveURL(/\/canh-gioi$/);
    await expect(mobileSheet(page)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Bảng cảnh giới' })).toBeVisible();
    await snap(page, 'realms-guest');

    await sidebarTrigger(page).click();
    await expect(mobileSheet(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(mobileSheet(page)).toHaveCount(0);
  });
});
