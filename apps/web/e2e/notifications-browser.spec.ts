import { expect as baseExpect, test, type Page } from '@playwright/test';
import type { StreamChat } from 'stream-chat';
import {
  closeChatUsers,
  newChatUser,
  openChat,
  ownChatClient,
  userIdOf,
  type ChatUser,
} from './chat-support';

// Browser notifications (the Notification API) for a mention and a direct message while the tab is hidden, once the
// cultivator opted in from the bell; nothing once they opted out.

const expect = baseExpect.configure({ timeout: 20_000 });
const CONNECTED = { timeout: 45_000 };

test.describe.configure({ timeout: 180_000 });

let users: ChatUser[] = [];
let clients: StreamChat[] = [];
test.afterEach(async () => {
  await Promise.all(clients.map((client) => client.disconnectUser()));
  clients = [];
  await closeChatUsers(...users);
  users = [];
});

interface Shown {
  title: string;
  body: string;
}

/**
 * Records each browser notification's title and body (the real one is still constructed) and lets the test hide the
 * tab: the app reads `document.visibilityState` when a message arrives.
 */
const RECORD_NOTIFICATIONS = () => {
  const Real = window.Notification;
  const record = { shown: [] as { title: string; body: string }[], hidden: false };
  class Recording extends Real {
    constructor(title: string, options?: NotificationOptions) {
      record.shown.push({ title, body: options?.body ?? '' });
      super(title, options);
    }
    static override get permission() {
      return Real.permission;
    }
    static override requestPermission(...args: Parameters<typeof Real.requestPermission>) {
      return Real.requestPermission(...args);
    }
  }
  Object.defineProperty(window, 'Notification', { value: Recording, configurable: true });
  Object.defineProperty(document, 'visibilityState', {
    get: () => (record.hidden ? 'hidden' : 'visible'),
    configurable: true,
  });
  Object.defineProperty(document, 'hidden', { get: () => record.hidden, configurable: true });
  (window as unknown as { __notifications: typeof record }).__notifications = record;
};

type Recorded = { shown: Shown[]; hidden: boolean };

const shown = async (page: Page) =>
  (
    await page.evaluate(
      () => (window as unknown as { __notifications: Recorded }).__notifications.shown,
    )
  ).map((notification) => ({ ...notification }));

async function hideTab(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __notifications: Recorded }).__notifications.hidden = true;
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** Flips the bell panel's browser-notifications switch and waits until it says `expected`, then closes the panel. */
async function toggleBrowserNotifications(page: Page, expected: string): Promise<void> {
  await page.getByTestId('notification-bell').click();
  const toggle = page.getByTestId('browser-notifications-toggle');
  await toggle.click();
  await expect(toggle).toHaveText(expected);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('notification-panel')).toHaveCount(0);
}

/** A's row in the channel list once it shows `text` as the last message: A's client has handled that message. */
function listedWith(page: Page, text: string) {
  return page.getByTestId('channel-list-item-button').filter({ hasText: text });
}

test('opted in with the tab hidden, a mention and a direct message each show a browser notification; opted out, nothing shows', async ({
  browser,
  baseURL,
}) => {
  const a = await newChatUser(browser, baseURL, 'Hàn Lập');
  const b = await newChatUser(browser, baseURL, 'Bạch Vân');
  const c = await newChatUser(browser, baseURL, 'Tử Linh');
  users.push(a, b, c);
  await a.context.addInitScript(RECORD_NOTIFICATIONS);
  await a.context.grantPermissions(['notifications']);
  await openChat(a.page, '/chat', CONNECTED);
  await toggleBrowserNotifications(a.page, 'Tắt thông báo trên trình duyệt');
  await hideTab(a.page);

  // B writes with their own chat client; C only has to exist in the chat to be a third member.
  const bClient = await ownChatClient(b);
  clients.push(bClient);
  await (await ownChatClient(c)).disconnectUser();
  const [aId, cId] = await Promise.all([userIdOf(a), userIdOf(c)]);
  const stamp = Date.now().toString(36);
  const group = bClient.channel('messaging', `hoi-dam-${stamp}`, {
    members: [bClient.userID!, aId, cId],
  } as never);
  await group.create();
  await group.sendMessage({
    text: `@${a.daoHieu} mời đạo hữu đến Thiên Nam luận đạo`,
    mentioned_users: [aId],
  });
  await expect
    .poll(() => shown(a.page))
    .toEqual([
      {
        title: `${b.daoHieu} nhắc đến đạo hữu`,
        body: `@${a.daoHieu} mời đạo hữu đến Thiên Nam luận đạo`,
      },
    ]);

  const direct = bClient.channel('messaging', { members: [bClient.userID!, aId] });
  await direct.create();
  await direct.sendMessage({ text: 'Đạo hữu có nhà không?' });
  await expect
    .poll(() => shown(a.page))
    .toEqual([
      expect.objectContaining({ title: `${b.daoHieu} nhắc đến đạo hữu` }),
      { title: `Tin nhắn từ ${b.daoHieu}`, body: 'Đạo hữu có nhà không?' },
    ]);

  // Opted out: the same kind of mention reaches A's client (its row in the list shows it) and nothing is shown.
  await toggleBrowserNotifications(a.page, 'Bật thông báo trên trình duyệt');
  await hideTab(a.page);
  await group.sendMessage({ text: `@${a.daoHieu} lần này im lặng`, mentioned_users: [aId] });
  await expect(listedWith(a.page, 'lần này im lặng')).toBeVisible();
  expect(await shown(a.page)).toHaveLength(2);
});
