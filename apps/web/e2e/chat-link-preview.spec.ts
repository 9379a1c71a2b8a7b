import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import {
  channelComposer,
  closeChatUsers,
  newChatUser,
  openChat,
  type ChatUser,
} from './chat-support';

// A link the chat server cannot preview (its page is missing, or is not a web page) says so quietly in the composer
// instead of loading for ever. One cultivator in a public sect channel is enough: nothing is sent.
test.describe.configure({ timeout: 90_000 });

/** playwright.config.ts lets the chat server preview pages on this port (E2E_PORT + 1000). */
const PREVIEW_PORT = Number(process.env.E2E_PORT ?? 3101) + 1000;
const ORIGIN = `http://trang-e2e.localhost:${PREVIEW_PORT}`;
/** The page answers late, so the composer's loading state is on screen for a while first. */
const SLOW_MS = 1200;
const tag = Date.now().toString(36);

let pageServer: Server;
let a: ChatUser | undefined;

test.beforeAll(async () => {
  pageServer = createServer((request, response) => {
    const url = request.url ?? '';
    setTimeout(() => {
      if (url.startsWith('/ghi-chu.txt')) {
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('Không phải trang web');
      } else {
        response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
        response.end('<!doctype html><title>Không tìm thấy</title>');
      }
    }, SLOW_MS);
  });
  await new Promise<void>((resolve) => pageServer.listen(PREVIEW_PORT, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  await closeChatUsers(a);
  await new Promise<void>((resolve) =>
    pageServer ? pageServer.close(() => resolve()) : resolve(),
  );
});

for (const [what, path] of [
  ['a missing page (404)', '/khong-co-trang-nay'],
  ['a page that is not a web page', '/ghi-chu.txt'],
] as const) {
  test(`a link to ${what} shows "Không xem trước được" after loading, and × removes it`, async ({
    browser,
    baseURL,
  }) => {
    a ??= await newChatUser(browser, baseURL, 'Xem Trước');
    await openChat(a.page, '/chat/sect/quang-truong', { timeout: 60_000 });
    const composer = channelComposer(a.page);
    await expect(composer).toBeVisible({ timeout: 30_000 });
    const previews = a.page.locator('.str-chat__main-panel').getByTestId('link-preview-card');

    // A URL of its own, so no earlier run has it cached on the server.
    await composer.click();
    await composer.fill(`Xem ${ORIGIN}${path}?lan=${tag}`);
    await expect(previews).toHaveAttribute('data-state', 'loading', { timeout: 10_000 });
    await expect(previews).toContainText('Đang tải xem trước liên kết…');
    await expect(previews).toHaveAttribute('data-state', 'failed', { timeout: 15_000 });
    await expect(previews).toContainText('Không xem trước được');
    await expect(previews).not.toContainText('Đang tải');

    await previews.getByRole('button', { name: 'Bỏ xem trước liên kết' }).click();
    await expect(previews).toHaveCount(0);
    await composer.fill('');
  });
}
