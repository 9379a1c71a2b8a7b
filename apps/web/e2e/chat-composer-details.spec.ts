import { createServer, type Server } from 'node:http';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  channelComposer,
  channelMessage,
  closeChatUsers,
  newChatUser,
  openChat,
  send,
  startDirectMessage,
  type ChatUser,
} from './chat-support';
import { snap, VIEWPORTS } from './support';

// The composer's details between two cultivators in one direct message: the emoji picker and `:` shortcodes, the
// full reaction picker, the poll dialog on a small screen, link previews and the report reasons. The steps share the
// conversation, so they run in order. Each step waits on the chat loading its code on demand, which takes long on a
// loaded machine: the bounds are wider than the default 30 s.
test.describe.configure({ mode: 'serial', timeout: 60_000 });

/** playwright.config.ts lets the chat server preview pages on this port (E2E_PORT + 1000). */
const PREVIEW_PORT = Number(process.env.E2E_PORT ?? 3101) + 1000;
const PREVIEW_URL = `http://trang-e2e.localhost:${PREVIEW_PORT}/dan-duoc-cac`;
/** The page answers this late, so the composer's loading state is on screen for a while. */
const SLOW_MS = 1200;
const PAGE = `<!doctype html><html><head>
<meta property="og:title" content="Đan Dược Các">
<meta property="og:description" content="Nơi luyện đan của tông môn">
<title>Đan Dược Các</title></head><body></body></html>`;

let a: ChatUser;
let b: ChatUser;
let pageServer: Server;
const tag = Date.now().toString(36);

function mainPanel(page: Page): Locator {
  return page.locator('.str-chat__main-panel');
}

/** Whether emoji-mart's code has run in the page (it defines this element when imported). */
function emojiMartLoaded(page: Page): Promise<boolean> {
  return page.evaluate(() => customElements.get('em-emoji-picker') !== undefined);
}

function pollOption(dialog: Locator, position: number): Locator {
  return dialog.getByRole('textbox', { name: `Lựa chọn ${position}`, exact: true });
}

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  pageServer = createServer((request, response) => {
    const found = request.url?.startsWith('/dan-duoc-cac') ?? false;
    setTimeout(() => {
      response.writeHead(found ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      response.end(found ? PAGE : '');
    }, SLOW_MS);
  });
  await new Promise<void>((resolve) => pageServer.listen(PREVIEW_PORT, '127.0.0.1', resolve));
  a = await newChatUser(browser, baseURL, 'Luyện Đan');
  b = await newChatUser(browser, baseURL, 'Luyện Khí');
  // The chat's first load is slow on the shared test machine: a minute, not the helpers' 20 s.
  await openChat(a.page, '/chat', { timeout: 60_000 });
  const path = await startDirectMessage(a.page, b);
  await b.page.goto(path);
  await expect(channelComposer(b.page)).toBeVisible({ timeout: 60_000 });
});

test.afterAll(async () => {
  await closeChatUsers(a, b);
  await new Promise<void>((resolve) =>
    pageServer ? pageServer.close(() => resolve()) : resolve(),
  );
});

test('the emoji picker downloads on first use and inserts the emoji picked', async () => {
  // The chat is open and connected, and emoji-mart has not been loaded: it is not part of the first load.
  expect(await emojiMartLoaded(a.page)).toBe(false);
  const composer = channelComposer(a.page);
  await composer.click();
  await composer.fill('Chúc mừng ');

  await mainPanel(a.page).getByRole('button', { name: 'Bảng chọn emoji' }).click();
  const picker = mainPanel(a.page).locator('em-emoji-picker');
  await expect(picker).toBeVisible({ timeout: 15_000 });
  expect(await emojiMartLoaded(a.page)).toBe(true);
  // Its search box speaks Vietnamese.
  await picker.getByPlaceholder('Tìm emoji').fill('fire');
  await picker.getByRole('button', { name: '🔥' }).first().click();
  await expect(composer).toHaveValue('Chúc mừng 🔥');
  await composer.click();
  await expect(picker).toBeHidden();
  await composer.fill('');
});

test('typing ":smi" offers matching emoji and picking one inserts it', async () => {
  const composer = channelComposer(a.page);
  await composer.click();
  await composer.pressSequentially('Vui quá :smi');
  const smile = a.page.locator('.str-chat__emoji-item').filter({ hasText: /(^|[^_a-z])smile$/ });
  await expect(smile).toBeVisible({ timeout: 10_000 });
  await smile.click();
  await expect(composer).toHaveValue(/^Vui quá 😄/);
  await composer.fill('');
});

test('a reaction from the full picker is sent and the other cultivator sees it', async () => {
  const text = `Đột phá Trúc Cơ ${tag}`;
  await send(channelComposer(a.page), text);
  const mine = channelMessage(a.page, text);
  await expect(mine).toBeVisible();
  await mine.hover();
  await mine.getByRole('button', { name: 'Mở bảng chọn biểu cảm' }).click();
  await a.page.getByTestId('reaction-selector-add-button').click();
  const full = a.page.getByTestId('full-reaction-picker');
  await full.getByPlaceholder('Tìm emoji').fill('pray');
  await full.getByRole('button', { name: '🙏' }).first().click();

  await expect(mine.locator('.str-chat__message-reactions')).toContainText('🙏');
  const theirs = channelMessage(b.page, text).locator('.str-chat__message-reactions');
  await expect(theirs).toContainText('🙏');
  // B draws it without ever loading the emoji data.
  expect(await emojiMartLoaded(b.page)).toBe(false);
});

test('the poll dialog keeps its buttons reachable at 375×600 and flags an emptied option', async () => {
  const page = a.page;
  await page.setViewportSize({ width: 375, height: 600 });
  try {
    await page.getByRole('button', { name: 'Mở trình chọn tệp đính kèm' }).click();
    await page.locator('.str-chat__attachment-selector-actions-menu__create-poll-button').click();
    const dialog = page.getByTestId('poll-creation-dialog');
    await dialog.getByLabel('Câu hỏi').fill(`Ngũ hành nào mạnh nhất ${tag}?`);
    const names = ['Kim', 'Mộc', 'Thủy', 'Hỏa', 'Thổ', 'Lôi'];
    for (const [index, name] of names.entries()) await pollOption(dialog, index + 1).fill(name);

    // The fields scroll between a fixed header and footer: both buttons stay fully on screen.
    const body = dialog.getByTestId('poll-creation-body');
    expect(await body.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(
      true,
    );
    const sendPoll = dialog.getByRole('button', { name: 'Gửi bình chọn' });
    const cancel = dialog.getByRole('button', { name: 'Hủy', exact: true });
    await expect(sendPoll).toBeInViewport({ ratio: 1 });
    await expect(cancel).toBeInViewport({ ratio: 1 });

    // A solid panel in both themes.
    const background = () =>
      dialog.evaluate((element) => getComputedStyle(element).backgroundColor);
    const light = await background();
    expect(light).not.toMatch(/^(transparent|rgba\(0, 0, 0, 0\))$/);
    await snap(page, 'chat-poll-dialog-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(background).not.toBe(light);
    expect(await background()).not.toMatch(/^(transparent|rgba\(0, 0, 0, 0\))$/);
    await snap(page, 'chat-poll-dialog-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Emptying a middle option keeps its row, flagged, and holds the poll back.
    await pollOption(dialog, 2).fill('');
    await expect(pollOption(dialog, 2)).toHaveValue('');
    await expect(pollOption(dialog, 3)).toHaveValue('Thủy');
    await expect(dialog.getByTestId('poll-option-error-2')).toHaveText('Lựa chọn trống');
    await expect(sendPoll).toBeDisabled();
    // Removing it on purpose clears the error.
    await dialog.getByRole('button', { name: 'Xóa lựa chọn: 2' }).click();
    await expect(pollOption(dialog, 2)).toHaveValue('Thủy');
    await expect(dialog.getByTestId('poll-option-error-2')).toBeHidden();
    await expect(sendPoll).toBeEnabled();

    await page.setViewportSize({ width: 1280, height: 720 });
    await expect(sendPoll).toBeInViewport({ ratio: 1 });
    await cancel.click();
    await expect(dialog).toBeHidden();
  } finally {
    await page.setViewportSize(VIEWPORTS.desktop);
  }
});

test('a link being typed shows its preview loading, then the card, and × removes it', async () => {
  const composer = channelComposer(a.page);
  const previews = mainPanel(a.page).getByTestId('link-preview-card');
  await composer.click();
  // A URL of its own, so no earlier run has it cached on the server.
  await composer.fill(`Xem ${PREVIEW_URL}?lan=${tag}`);
  await expect(previews).toContainText('Đang tải xem trước liên kết…');
  await expect(previews).toContainText('Đan Dược Các', { timeout: 10_000 });
  await expect(previews).toContainText('Nơi luyện đan của tông môn');
  await expect(previews).not.toContainText('Đang tải');

  await previews.getByRole('button', { name: 'Bỏ xem trước liên kết' }).click();
  await expect(previews).toHaveCount(0);
  await composer.fill('');
});

test('the message menu names muting the person, and a report asks for a reason', async () => {
  const text = `Mua bán linh thạch giá rẻ ${tag}`;
  await send(channelComposer(a.page), text);
  const message = channelMessage(b.page, text);
  await expect(message).toBeVisible();
  await message.hover();
  await message.getByRole('button', { name: 'Mở menu thao tác với tin nhắn' }).click();
  await expect(b.page.getByRole('menuitem', { name: 'Tắt thông báo người này' })).toBeVisible();
  await b.page.getByRole('menuitem', { name: 'Báo cáo tin nhắn' }).click();

  const dialog = b.page.getByRole('dialog', { name: 'Báo cáo tin nhắn' });
  await expect(dialog.getByRole('group', { name: 'Lý do báo cáo' })).toBeVisible();
  // Nothing is sent without a reason.
  await dialog.getByRole('button', { name: 'Gửi báo cáo' }).click();
  await expect(dialog).toContainText('Hãy chọn lý do báo cáo.');

  const flagged = b.page.waitForRequest(
    (request) =>
      request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/moderation/flag'),
  );
  await dialog.getByRole('radio', { name: 'Spam hoặc quảng cáo' }).check();
  await dialog.getByRole('button', { name: 'Gửi báo cáo' }).click();
  expect((await flagged).postDataJSON()).toMatchObject({ reason: 'Spam hoặc quảng cáo' });
  await expect(dialog).toBeHidden();
});
