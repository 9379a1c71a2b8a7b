import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  channelComposer,
  channelMessage,
  closeChatUsers,
  newChatUser,
  send,
  type ChatUser,
} from './chat-support';
import { VIEWPORTS, snap, type Cultivator } from './support';

// A cultivator finds a message in another channel by typing it without accents, and lands on it.
// Every page load reconnects the chat; on a shared, loaded machine that alone can outlast the default timeouts, so
// the waits here are longer (and still bounded).
test.describe.configure({ mode: 'serial', timeout: 120_000 });
const SLOW = { timeout: 30_000 };

let a: ChatUser;
let b: ChatUser;
let dmPath: string;
// One word no other message of the run contains, so the search returns this message only.
const tag = `tm${Date.now().toString(36)}`;
const posted = `Tông môn ${tag} mở đại hội luận kiếm`;
const typed = `tong mon ${tag}`;

function searchDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Tìm kiếm trong trò chuyện' });
}

function searchBox(page: Page) {
  return searchDialog(page).getByRole('combobox', { name: 'Tìm kiếm' });
}

/** The results only: the sender filter's native <select> has options of its own. */
function resultOptions(dialog: Locator) {
  return dialog.getByRole('listbox', { name: 'Kết quả tìm kiếm' }).getByRole('option');
}

async function openSearch(page: Page) {
  await page.getByRole('button', { name: 'Tìm kiếm trong trò chuyện' }).click();
  await expect(searchBox(page)).toBeFocused(SLOW);
  return searchDialog(page);
}

async function connectChat(page: Page, path = '/chat') {
  await page.goto(path);
  await expect(page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible({
    timeout: 60_000,
  });
}

/** Starts the direct message through "Cuộc trò chuyện mới", as a cultivator would; returns its path. */
async function startDirectMessage(page: Page, other: Cultivator): Promise<string> {
  await page.getByRole('button', { name: 'Cuộc trò chuyện mới' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cuộc trò chuyện mới' });
  await dialog.getByLabel('Đạo hiệu').fill(other.daoHieu);
  await dialog.getByRole('checkbox', { name: new RegExp(other.daoHieu) }).click(SLOW);
  await dialog.getByRole('button', { name: 'Nhắn tin' }).click();
  await expect(dialog).toBeHidden(SLOW);
  await expect(page).toHaveURL(/\/chat\/messaging\/[^/]+$/, SLOW);
  return new URL(page.url()).pathname;
}

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  a = await newChatUser(browser, baseURL, 'Tầm Đạo');
  b = await newChatUser(browser, baseURL, 'Đăng Tin');
  await connectChat(a.page);
  dmPath = await startDirectMessage(a.page, b);
  await connectChat(b.page, dmPath);
  await expect(channelComposer(b.page)).toBeVisible(SLOW);
  await send(channelComposer(b.page), posted);
  await expect(channelMessage(b.page, posted)).toBeVisible(SLOW);
});

test.afterAll(async () => closeChatUsers(a, b));

test('typing "tong mon" finds "Tông môn" posted in another channel and opens it at the highlighted message', async () => {
  // A sect channel is open (not /chat, which reopens the last channel: the DM): the message is elsewhere.
  await connectChat(a.page, '/chat/sect/quang-truong');
  await expect(a.page).toHaveURL(/\/chat\/[^/]+\/[^/]+$/, SLOW);
  expect(new URL(a.page.url()).pathname).not.toBe(dmPath);

  const dialog = await openSearch(a.page);
  await expect(dialog.getByRole('button', { name: 'Tin nhắn', pressed: true })).toBeVisible();
  await searchBox(a.page).fill(typed);
  const result = resultOptions(dialog).filter({ hasText: tag });
  await expect(result).toHaveCount(1, SLOW);
  await expect(result.locator('mark')).toHaveText(['Tông', 'môn', tag]);
  await expect(result).toHaveAttribute('aria-selected', 'true');
  await snap(a.page, 'chat-search');

  await searchBox(a.page).press('Enter');
  await expect(dialog).toBeHidden(SLOW);
  await expect.poll(() => new URL(a.page.url()).pathname, SLOW).toBe(dmPath);
  const message = channelMessage(a.page, posted);
  await expect(message).toBeVisible(SLOW);
  await expect(message).toHaveClass(/str-chat__message--highlighted/, SLOW);
});

test('a filter that excludes the message shows "no results", and Escape closes the search', async () => {
  const dialog = await openSearch(a.page);
  await searchBox(a.page).fill(typed);
  await expect(resultOptions(dialog).filter({ hasText: tag })).toHaveCount(1, SLOW);
  await dialog.getByRole('button', { name: 'Đã ghim' }).click();
  await expect(dialog.getByText('Không tìm thấy kết quả nào')).toBeVisible(SLOW);
  await expect(resultOptions(dialog)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Đã ghim' }).click();
  await expect(resultOptions(dialog).filter({ hasText: tag })).toHaveCount(1, SLOW);

  await searchBox(a.page).press('Escape');
  await expect(dialog).toBeHidden(SLOW);
});

test('a person found by đạo hiệu opens the direct message with them', async () => {
  // From a sect channel, so that landing on the DM proves the search opened it.
  await connectChat(a.page, '/chat/sect/quang-truong');
  await expect(a.page).toHaveURL(/\/chat\/[^/]+\/[^/]+$/, SLOW);
  const dialog = await openSearch(a.page);
  await dialog.getByRole('button', { name: 'Đạo hữu' }).click();
  await searchBox(a.page).fill(b.daoHieu);
  const person = resultOptions(dialog).filter({ hasText: b.daoHieu });
  await expect(person).toHaveCount(1, SLOW);
  await person.click();
  await expect(dialog).toBeHidden(SLOW);
  await expect.poll(() => new URL(a.page.url()).pathname, SLOW).toBe(dmPath);
});

test('on a 375 px phone the search fills the screen', async () => {
  await a.page.setViewportSize(VIEWPORTS.mobile);
  await connectChat(a.page);
  const dialog = await openSearch(a.page);
  const box = await dialog.boundingBox();
  expect(box).toMatchObject({ x: 0, y: 0, width: VIEWPORTS.mobile.width });
  await searchBox(a.page).fill(typed);
  await expect(resultOptions(dialog).filter({ hasText: tag })).toHaveCount(1, SLOW);
  await snap(a.page, 'chat-search');
  await dialog.getByRole('button', { name: 'Thoát tìm kiếm' }).click();
  await expect(dialog).toBeHidden(SLOW);
});
