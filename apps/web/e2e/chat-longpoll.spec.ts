import { expect, test, type Page, type Request } from '@playwright/test';
import {
  channelComposer,
  channelListItem,
  channelMessage,
  closeChatUsers,
  newChatUser,
  send,
  type ChatUser,
} from './chat-support';

// A cultivator whose network refuses websockets (a proxy that drops upgrades) while the browser is online: the chat
// client falls back to long-polling /chat/longpoll and the conversation keeps working both ways.
test.describe.configure({ mode: 'serial' });

let a: ChatUser;
let b: ChatUser;
let blockedSockets = 0;
const longPolls: Request[] = [];
const tag = Date.now().toString(36);
const fromB = `Đạo hữu có nhận được không? ${tag}`;
const fromA = `Nhận được, qua đường dự phòng ${tag}`;

/**
 * The client waits about 6 s for its websocket before it falls back, then connects over long-poll; on a loaded
 * machine the page itself may take as long again to load.
 */
const FALLBACK_TIMEOUT = 60_000;
/** Any other step: generous, since the point here is the transport, not speed. */
const SLOW = 20_000;

test.beforeAll(async ({ browser, baseURL }) => {
  a = await newChatUser(browser, baseURL, 'Cô Vân');
  b = await newChatUser(browser, baseURL, 'Bạch Hạc');
  // Every websocket A opens to the chat is closed at once, as a failing network would (not 1000, which the client
  // takes as a final refusal).
  await a.context.routeWebSocket(/\/chat\/connect/, (socket) => {
    blockedSockets += 1;
    void socket.close({ code: 1011, reason: 'websocket blocked by the test' });
  });
  a.page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/chat/longpoll') longPolls.push(request);
  });
});

test.afterAll(async () => closeChatUsers(a, b));

/** Opens the chat and waits until it is connected, allowing for the fallback and a loaded machine. */
async function openChatPatiently(page: Page): Promise<void> {
  await page.goto('/chat');
  await expect(page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible({
    timeout: FALLBACK_TIMEOUT,
  });
}

test('the chat connects over long-poll when the websocket is blocked', async () => {
  test.setTimeout(3 * FALLBACK_TIMEOUT);
  await openChatPatiently(a.page);
  // B connects normally, over the websocket.
  await openChatPatiently(b.page);
  await expect.poll(() => longPolls.length, { timeout: FALLBACK_TIMEOUT }).toBeGreaterThan(1);
  expect(blockedSockets).toBeGreaterThan(0);
});

test('a message B sends reaches A through long-poll, without a reload', async () => {
  test.setTimeout(FALLBACK_TIMEOUT);
  // B starts the conversation from the "Cuộc trò chuyện mới" dialog (startDirectMessage's steps, with the
  // patience this spec's slow first connection calls for).
  await b.page.getByRole('button', { name: 'Cuộc trò chuyện mới' }).click();
  const dialog = b.page.getByRole('dialog', { name: 'Cuộc trò chuyện mới' });
  await dialog.getByLabel('Đạo hiệu').fill(a.daoHieu);
  await dialog.getByRole('checkbox', { name: new RegExp(a.daoHieu) }).click({ timeout: SLOW });
  await dialog.getByRole('button', { name: 'Nhắn tin' }).click();
  await expect(dialog).toBeHidden({ timeout: SLOW });
  await expect(channelComposer(b.page)).toBeVisible({ timeout: SLOW });
  await send(channelComposer(b.page), fromB);
  await expect(channelMessage(b.page, fromB)).toBeVisible({ timeout: SLOW });

  const item = channelListItem(a.page, b.daoHieu);
  await expect(item).toContainText(fromB, { timeout: SLOW });
  await item.click();
  await expect(channelMessage(a.page, fromB)).toBeVisible({ timeout: SLOW });
});

test('A can answer while on long-poll, and B sees it live', async () => {
  test.setTimeout(FALLBACK_TIMEOUT);
  await send(channelComposer(a.page), fromA);
  await expect(channelMessage(a.page, fromA)).toBeVisible({ timeout: SLOW });
  await expect(channelMessage(b.page, fromA)).toBeVisible({ timeout: SLOW });
});
