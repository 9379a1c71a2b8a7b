import { expect, test, type Page } from '@playwright/test';
import {
  channelComposer,
  channelMessage,
  closeChatUsers,
  newChatUser,
  openChat,
  ownChatClient,
  send,
  startDirectMessage,
  type ChatUser,
} from './chat-support';

// A's sends fail while the chat API cannot be reached; the outbox sends them once it can, and B sees each once.
test.describe.configure({ mode: 'serial' });
// Two browsers signing up, connecting and starting a conversation: slow on a loaded machine.
test.slow();

let a: ChatUser;
let b: ChatUser;
let path: string;

/** Every message send of the page fails as if the network were gone (no answer, status 0). */
const SEND_ROUTE = /\/chat\/channels\/[^/]+\/[^/]+\/message(?:\?|$)/;

async function cutSends(page: Page): Promise<void> {
  await page.route(SEND_ROUTE, (route) =>
    route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback(),
  );
}

async function restoreSends(page: Page): Promise<void> {
  await page.unroute(SEND_ROUTE);
}

/** How many messages with exactly this text the server holds in the conversation, as B reads it. */
async function storedCopies(text: string): Promise<number> {
  const client = await ownChatClient(b);
  try {
    const [type = '', id = ''] = path.split('/').slice(-2);
    const channel = client.channel(type, decodeURIComponent(id));
    const state = await channel.query({ messages: { limit: 100 } });
    return state.messages.filter((message) => message.text === text).length;
  } finally {
    await client.disconnectUser();
  }
}

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(300_000);
  a = await newChatUser(browser, baseURL, 'Hộp Thư');
  b = await newChatUser(browser, baseURL, 'Người Nhận');
  // The machine running the suite can be slow to connect: wait longer than the shared helpers do.
  await openChat(a.page, '/chat', { timeout: 90_000 });
  path = await startDirectMessage(a.page, b);
  await openChat(b.page, path, { timeout: 90_000 });
  await expect(channelComposer(b.page)).toBeVisible({ timeout: 30_000 });
});

test.afterAll(async () => closeChatUsers(a, b));

test('a send lost to the connection says "Chưa gửi được · Thử lại" and goes out by itself once it returns', async () => {
  const text = `Gửi khi mất mạng ${Date.now().toString(36)}`;
  await cutSends(a.page);
  await send(channelComposer(a.page), text);

  const failure = channelMessage(a.page, text).getByTestId('send-failure');
  await expect(failure).toContainText('Chưa gửi được');
  await expect(failure.getByRole('button', { name: 'Thử lại' })).toBeVisible();
  await expect(channelMessage(b.page, text)).toHaveCount(0);

  await restoreSends(a.page);
  // The outbox tries every few seconds while something waits.
  await expect(failure).toHaveCount(0, { timeout: 30_000 });
  await expect(channelMessage(b.page, text)).toHaveCount(1, { timeout: 20_000 });
  await expect(channelMessage(a.page, text)).toHaveCount(1);
  expect(await storedCopies(text)).toBe(1);
});

test('a send lost to the connection survives a reload and goes out after it, once', async () => {
  const text = `Gửi rồi tải lại ${Date.now().toString(36)}`;
  await cutSends(a.page);
  await send(channelComposer(a.page), text);
  await expect(channelMessage(a.page, text).getByRole('button', { name: 'Thử lại' })).toBeVisible();

  // The reload happens while sends still fail: the first attempt after it fails too, and the message waits.
  await openChat(a.page, path);
  await expect(channelComposer(a.page)).toBeVisible();
  await restoreSends(a.page);

  await expect(channelMessage(b.page, text)).toHaveCount(1, { timeout: 30_000 });
  await expect(channelMessage(a.page, text)).toHaveCount(1, { timeout: 20_000 });
  await expect(channelMessage(a.page, text).getByTestId('send-failure')).toHaveCount(0);
  expect(await storedCopies(text)).toBe(1);
});

test('a refused send is not queued: it keeps its reason and never goes out by itself', async () => {
  const text = `Bị từ chối ${Date.now().toString(36)}`;
  await a.page.route(SEND_ROUTE, (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 403,
          contentType: 'application/json',
          json: { code: 17, message: 'not allowed', StatusCode: 403, duration: '0ms' },
        })
      : route.fallback(),
  );
  await send(channelComposer(a.page), text);
  const failure = channelMessage(a.page, text).getByTestId('send-failure');
  await expect(failure).toContainText('đạo hữu không có quyền gửi tin nhắn');
  await expect(failure.getByRole('button', { name: 'Thử lại' })).toHaveCount(0);
  const queued = await a.page.evaluate(() =>
    Object.keys(localStorage).filter((key) => key.startsWith('daohuu:outbox:v1:')),
  );
  expect(queued).toEqual([]);
  await restoreSends(a.page);
});
