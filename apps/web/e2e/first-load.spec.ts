import { expect, test, type Page, type Request } from '@playwright/test';
import { channelComposer, closeChatUsers, newChatUser, type ChatUser } from './chat-support';
import { VIEWPORTS } from './support';

const FIRST_MESSAGE = '.str-chat__main-panel .str-chat__message';
/** The shell's parts that wait until after the first content: the toaster (sonner) and the bell's menu. */
const DEFERRED_CHUNK = /\/assets\/(sonner|notification-bell)-[\w-]+\.js$/;

function modulePreloads(page: Page): Promise<string[]> {
  return page
    .locator('link[rel="modulepreload"]')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
}

function countRequests(page: Page, path: string): { count: () => number } {
  let count = 0;
  page.on('request', (request: Request) => {
    if (new URL(request.url()).pathname === path) count += 1;
  });
  return { count: () => count };
}

test.describe('the first load of a page', () => {
  test('a page opened on the chat hints the chat screen’s code in its head; any other page does not', async ({
    page,
  }) => {
    await page.goto('/chat');
    await expect(page.locator(FIRST_MESSAGE).first()).toBeVisible({ timeout: 20_000 });
    const onChat = await modulePreloads(page);
    expect(onChat.some((path) => /\/assets\/chat-screen-[\w-]+\.js$/.test(path))).toBe(true);
    expect(onChat.some((path) => /\/assets\/chat-client-[\w-]+\.js$/.test(path))).toBe(true);

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const onHome = await modulePreloads(page);
    expect(onHome.some((path) => path.includes('/chat-screen-'))).toBe(false);
  });

  test('asks who is signed in once, from the page’s head, and uses that answer', async ({
    page,
  }) => {
    const me = countRequests(page, '/api/me');
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Đăng nhập' }).first()).toBeVisible();
    // Give a second fetch, if there were one, the time to start.
    await page.waitForLoadState('networkidle');
    expect(me.count()).toBe(1);
  });

  test('a page opened on the chat asks for the chat settings once, from its head, and connects with that answer', async ({
    page,
  }) => {
    const config = countRequests(page, '/api/chat/config');
    await page.goto('/chat');
    await expect(page.locator(FIRST_MESSAGE).first()).toBeVisible({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    const preloaded = await page
      .locator('link[rel="preload"][as="fetch"]')
      .evaluateAll((links) =>
        links.map((link) => new URL((link as HTMLLinkElement).href).pathname),
      );
    expect(preloaded).toContain('/api/chat/config');
    expect(config.count()).toBe(1);
  });

  test('the opening channel’s latest messages show before the chat screen’s code has arrived, and the full chat takes their place without asking again', async ({
    page,
  }) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/chat-screen-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const channelQueries: string[] = [];
    const channelWatches: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() !== 'POST') return;
      if (path === '/chat/channels') channelQueries.push(request.postData() ?? '');
      if (/^\/chat\/channels\/[^/]+\/[^/]+\/query$/.test(path)) channelWatches.push(path);
    });

    await page.goto('/chat');
    const preview = page.locator('[data-first-messages]');
    await expect(preview.locator('[data-message-id]').first()).toBeVisible({ timeout: 20_000 });
    await expect(preview).toHaveAccessibleName(/.+/);
    await expect(preview.getByRole('status')).toHaveText('Đang mở kênh…');
    await expect(page.locator('.str-chat__main-panel')).toHaveCount(0);
    const newest = await preview
      .locator('[data-message-id]')
      .last()
      .getAttribute('data-message-id');
    expect(newest).toBeTruthy();

    release();
    const fullChat = page.locator('.str-chat__main-panel');
    // The same newest message, now in stream-chat-react's list.
    await expect(fullChat.locator(`[data-message-id="${newest}"]`)).toBeVisible({
      timeout: 20_000,
    });
    await expect(preview).toHaveCount(0);
    await expect(page).toHaveURL(/\/chat\/sect\//);
    // The preview's watching query is the channel's only read by cid: the chat screen found it ready.
    const cid = decodeURIComponent(new URL(page.url()).pathname.split('/').slice(2).join(':'));
    expect(channelQueries.filter((body) => body.includes(`"cid":"${cid}"`))).toHaveLength(1);
    expect(channelWatches).toEqual([]);
  });

  test('a page opened on the chat shows the opening channel’s latest messages before any of the app’s code has run', async ({
    page,
  }) => {
    // No script of the app arrives: whatever shows is in the page the server wrote.
    await page.route(/\/assets\/[\w.-]+\.js$/, (route) => route.abort());
    await page.goto('/chat');
    const drawn = page.locator('#dh-early-messages [data-early-messages="sect:quang-truong"]');
    await expect(drawn).toHaveAccessibleName('Quảng Trường');
    await expect(drawn.locator('[data-message-id]').first()).toBeVisible();
    // Placed where the chat will be: beside the sidebar's place, under the header's.
    const box = await drawn.boundingBox();
    expect(box?.x).toBeGreaterThan(250);
    expect(box?.y).toBeGreaterThan(56);
  });

  test('the app takes the server’s messages into its chat frame with no connecting state between, and none are left behind', async ({
    page,
  }) => {
    // Once a first message has been on screen, record any moment with none (a flash of the connecting state).
    await page.addInitScript(() => {
      const seen = { shown: false, gaps: 0 };
      Object.assign(window, { __firstMessages: seen });
      const selector =
        '[data-first-messages] [data-message-id], .str-chat__main-panel .str-chat__message';
      new MutationObserver(() => {
        const present = document.querySelector(selector) !== null;
        if (present) seen.shown = true;
        else if (seen.shown) seen.gaps += 1;
      }).observe(document, { subtree: true, childList: true });
    });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/(chat-screen|first-messages)-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });

    await page.goto('/chat');
    const adopted = page.locator('#root .dh-chat-frame [data-early-messages]');
    await expect(adopted.locator('[data-message-id]').first()).toBeVisible({ timeout: 20_000 });
    // The times are written in the viewer's clock once the app runs.
    await expect(adopted.locator('time').first()).toHaveText(/^\d{2}:\d{2}$/);
    await expect(page.getByText('Đang kết nối')).toHaveCount(0);
    const seen = await page.evaluate(
      () =>
        (window as unknown as { __firstMessages: { shown: boolean; gaps: number } })
          .__firstMessages,
    );
    expect(seen).toEqual({ shown: true, gaps: 0 });

    release();
    await expect(page.locator(FIRST_MESSAGE).first()).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('[data-early-messages]')).toHaveCount(0);
    await expect(page.locator('#dh-early-messages')).toHaveCount(0);
  });

  test('on a phone, /chat is the channel list: the channel the server drew for a wide screen never shows', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL, viewport: VIEWPORTS.mobile });
    const page = await context.newPage();
    await page.route(/\/assets\/[\w.-]+\.js$/, (route) => route.abort());
    await page.goto('/chat');
    await expect(page.locator('#dh-early-messages')).toBeAttached();
    await expect(page.locator('#dh-early-messages')).toBeHidden();
    await page.unrouteAll();
    await page.goto('/chat');
    await expect(page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible({
      timeout: 20_000,
    });
    await expect(page.locator('[data-early-messages]')).toBeHidden();
    await context.close();
  });

  test.describe('signed in, on the chat', () => {
    let user: ChatUser | undefined;
    test.afterEach(async () => closeChatUsers(user));

    test('the page of /chat is written with the channel the cultivator last had open', async ({
      browser,
      baseURL,
    }) => {
      user = await newChatUser(browser, baseURL, 'Kênh cũ');
      const { page } = user;
      await page.goto('/chat/sect/luan-dao');
      await expect(page.locator(FIRST_MESSAGE).first()).toBeVisible({ timeout: 20_000 });
      const html = await (
        await page.request.get('/chat', { headers: { accept: 'text/html' } })
      ).text();
      expect(html).toContain('data-early-messages="sect:luan-dao"');
      await page.goto('/chat');
      await expect(page).toHaveURL(/\/chat\/sect\/luan-dao$/);
    });

    test('the toaster and the bell’s menu are fetched only after the first messages are on screen', async ({
      browser,
      baseURL,
    }) => {
      user = await newChatUser(browser, baseURL, 'Tải đầu');
      const { page } = user;
      const deferred: { path: string; messagesShown: number }[] = [];
      await page.route(DEFERRED_CHUNK, async (route) => {
        deferred.push({
          path: new URL(route.request().url()).pathname,
          messagesShown: await page.locator(FIRST_MESSAGE).count(),
        });
        await route.continue();
      });
      await page.goto('/chat');
      await expect(page.locator(FIRST_MESSAGE).first()).toBeVisible({ timeout: 20_000 });
      // The bell appears once its code is there: both deferred parts were fetched by then.
      await expect(page.getByRole('button', { name: /Thông báo/ })).toBeVisible({
        timeout: 15_000,
      });
      await expect.poll(() => deferred.length).toBeGreaterThanOrEqual(2);
      for (const fetched of deferred) {
        expect(
          fetched.messagesShown,
          `${fetched.path} was fetched before the first message`,
        ).toBeGreaterThan(0);
      }
    });

    test('when the toaster’s and the bell’s code cannot be fetched, the chat stays and the rest of the page works', async ({
      browser,
      baseURL,
    }) => {
      user = await newChatUser(browser, baseURL, 'Mất Mạng');
      const { page } = user;
      let refused = 0;
      await page.route(DEFERRED_CHUNK, async (route) => {
        refused += 1;
        await route.abort('internetdisconnected');
      });
      await page.goto('/chat');
      await expect(page.locator(FIRST_MESSAGE).first()).toBeVisible({ timeout: 20_000 });
      // Each part tries its import three times (2 s, then 4 s apart) before it is left out.
      await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThanOrEqual(6);
      await page.waitForTimeout(500);
      await expect(page.locator(FIRST_MESSAGE).first()).toBeVisible();
      await expect(channelComposer(page)).toBeVisible();
      await expect(page.getByText('Đã có lỗi xảy ra')).toHaveCount(0);
      await expect(page.getByRole('button', { name: /Thông báo/ })).toHaveCount(0);
    });
  });
});
