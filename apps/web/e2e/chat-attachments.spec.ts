import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { StreamChat } from 'stream-chat';
import {
  channelComposer,
  channelMessage,
  closeChatUsers,
  newChatUser,
  openDirectMessage,
  send,
  toasts,
  type ChatUser,
} from './chat-support';

// Attachments and link previews between two cultivators in one direct message, against the real embedded chat
// server. The steps share the conversation, so they run in order.
test.describe.configure({ mode: 'serial' });

/** playwright.config.ts lets the chat server preview this local page (CHAT_LINK_PREVIEW_ALLOW_HOSTS). */
const PREVIEW_PORT = 3189;
const PREVIEW_URL = `http://trang-e2e.localhost:${PREVIEW_PORT}/tang-kinh-cac`;
const PAGE = `<!doctype html><html><head>
<meta property="og:title" content="Tàng Kinh Các">
<meta property="og:description" content="Nơi cất giữ bí kíp tu luyện">
<title>Tàng Kinh Các</title></head><body></body></html>`;

/** A 64×48 PNG: a real image the server can measure and thumbnail. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAfUlEQVR4nO2SwQ0AQRCC/NP31UR5V4aZrAkFgDF+nCZ1AxdAfUV3Ie6SuoELoL6iuxB3Sd3ABVBf0V2Iu6Ru4AKor+guxF1SN3AB1Fd0F+IuqRu4AOorugtxl9QNXAD1Fd2FuEvqBi6A+oruQtwldQMXQH1FdyHukrqBjwf8uy5s4s/r9SYAAAAASUVORK5CYII=',
  'base64',
);

let a: ChatUser;
let b: ChatUser;
let pageServer: Server;
const tag = Date.now().toString(36);

function fileInput(page: Page) {
  return page.locator('.str-chat__main-panel').getByTestId('file-input');
}

/** The chat app's server-side client, with the credentials the product server keeps in its data directory. */
function chatAdmin(baseURL: string): StreamChat {
  const dataDir = process.env.DAOHUU_E2E_DATA_DIR;
  if (!dataDir) throw new Error('DAOHUU_E2E_DATA_DIR is not set (playwright.config.ts sets it).');
  const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as {
    streamApiKey: string;
    streamApiSecret: string;
  };
  return new StreamChat(secrets.streamApiKey, secrets.streamApiSecret, {
    baseURL: `${baseURL}/chat`,
  });
}

function uploaded(page: Page, kind: 'image' | 'file') {
  return page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      new RegExp(`/chat/channels/messaging/[^/]+/${kind}$`).test(new URL(response.url()).pathname),
  );
}

test.beforeAll(async ({ browser, baseURL }) => {
  pageServer = createServer((request, response) => {
    const found = request.url?.startsWith('/tang-kinh-cac') ?? false;
    response.writeHead(found ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(found ? PAGE : '');
  });
  await new Promise<void>((resolve) => pageServer.listen(PREVIEW_PORT, '127.0.0.1', resolve));
  a = await newChatUser(browser, baseURL, 'Luyện Khí');
  b = await newChatUser(browser, baseURL, 'Trúc Cơ');
  await openDirectMessage(a, b, { bOpens: true });
});

test.afterAll(async () => {
  await closeChatUsers(a, b);
  await new Promise<void>((resolve) =>
    pageServer ? pageServer.close(() => resolve()) : resolve(),
  );
});

test('an uploaded image reaches the other cultivator', async () => {
  const text = `Đan dược mới ${tag}`;
  const done = uploaded(a.page, 'image');
  await fileInput(a.page).setInputFiles({
    name: 'dan-duoc.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  expect((await done).ok()).toBe(true);
  await send(channelComposer(a.page), text);
  const image = channelMessage(b.page, text).locator('img').first();
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('src', /\/chat\/uploads\/.+dan-duoc\.png/);
});

test('a failed upload shows the Vietnamese error', async () => {
  const done = uploaded(a.page, 'image');
  // Text dressed as a PNG: the server refuses it, the composer marks the attachment failed.
  await fileInput(a.page).setInputFiles({
    name: 'gia-mao.png',
    mimeType: 'image/png',
    buffer: Buffer.from('không phải ảnh'),
  });
  expect((await done).status()).toBe(400);
  await expect(
    toasts(a.page).filter({
      hasText: /Lỗi khi tải lên tệp đính kèm|Tải lên tệp đính kèm thất bại/,
    }),
  ).toBeVisible();
  await a.page.reload();
  await expect(channelComposer(a.page)).toBeVisible();
});

test('sending while an attachment is still uploading warns and sends nothing', async () => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await a.page.route('**/chat/channels/messaging/*/file*', async (route) => {
    await held;
    await route.continue();
  });
  await fileInput(a.page).setInputFiles({
    name: 'bi-kip.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Bí kíp luyện đan'),
  });
  const text = `Gửi khi đang tải ${tag}`;
  await send(channelComposer(a.page), text);
  await expect(
    toasts(a.page).filter({ hasText: 'Vui lòng đợi tất cả tệp đính kèm tải lên xong' }),
  ).toBeVisible();
  await expect(channelMessage(a.page, text)).toHaveCount(0);
  const done = uploaded(a.page, 'file');
  release();
  expect((await done).ok()).toBe(true);
  await a.page.unroute('**/chat/channels/messaging/*/file*');
  await channelComposer(a.page).press('Enter');
  await expect(channelMessage(b.page, text)).toContainText('bi-kip.txt');
});

test('a file with a blocked extension is blocked with a notification', async ({ baseURL }) => {
  const admin = chatAdmin(baseURL!);
  await admin.updateAppSettings({ file_upload_config: { blocked_file_extensions: ['.exe'] } });
  try {
    // The client reads the upload configuration once per connection.
    await a.page.reload();
    await expect(channelComposer(a.page)).toBeVisible();
    await fileInput(a.page).setInputFiles({
      name: 'phap-bao.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('MZ'),
    });
    await expect(toasts(a.page).filter({ hasText: 'bị chặn' })).toBeVisible();
  } finally {
    await admin.updateAppSettings({ file_upload_config: {} });
  }
  await a.page.reload();
  await expect(channelComposer(a.page)).toBeVisible();
});

test('a link preview appears after the pause, and once dismissed it does not come back', async () => {
  const composer = channelComposer(a.page);
  const previews = a.page.locator('.str-chat__main-panel').getByTestId('link-preview-card');
  await composer.click();
  await composer.fill(`Xem ${PREVIEW_URL}`);
  await expect(previews).toContainText('Tàng Kinh Các');
  await expect(previews).toContainText('Nơi cất giữ bí kíp tu luyện');

  await previews.getByTestId('link-preview-card-dismiss-btn').click();
  await expect(previews).toHaveCount(0);

  // A second link is looked up after the same pause; the dismissed one is not looked up again.
  const other = `${PREVIEW_URL}?lan=2`;
  await composer.fill(`Xem ${PREVIEW_URL} và ${other} lien-ket-${tag}`);
  await expect(previews).toHaveCount(1);
  await expect(previews.locator('.str-chat__link-preview-card__content__url')).toHaveText(other);
  await composer.press('Enter');

  // Only the kept preview travels with the message: the server does not re-add the dismissed one.
  const sent = channelMessage(b.page, `lien-ket-${tag}`);
  await expect(sent).toContainText('Tàng Kinh Các');
  await expect(sent.locator('.str-chat__message-attachment-card')).toHaveCount(1);
});
