import { REALMS } from '@daohuu/domain';
import { expect as baseExpect, request, test, type Page } from '@playwright/test';
import {
  channelComposer,
  channelMessage,
  closeChatUsers,
  newChatUser,
  openChat,
  send,
  setTuViAsAdmin,
  startDirectMessage,
  toasts,
  type ChatUser,
} from './chat-support';
import { ADMIN, signInViaApi } from './support';

// "Đột phá!" in the bell (and, when allowed, once in Quảng Trường), paging the bell's list, and browser
// notifications that are never asked for before the cultivator opts in.

const expect = baseExpect.configure({ timeout: 20_000 });
const CONNECTED = { timeout: 45_000 };

test.describe.configure({ timeout: 180_000 });

let users: ChatUser[] = [];
test.afterEach(async () => {
  await closeChatUsers(...users);
  users = [];
});

/** The upper bounds of the first 31 realms: one more than each enters the next realm. */
const REALM_UPPERS = REALMS.slice(0, 31).map((realm) => realm.upper);

function bell(page: Page) {
  return page.getByTestId('notification-bell');
}

function panelItems(page: Page) {
  return page.getByTestId('notification-panel').getByTestId('notification-item');
}

/** The announcements of `daoHieu`'s breakthroughs in Quảng Trường's message list. */
function announcements(page: Page, daoHieu: string) {
  return channelMessage(page, `Chúc mừng ${daoHieu} đã đột phá lên`);
}

test('an admin raising a cultivator across a realm rings their bell with "Đột phá!", and the square hears of it once when they allow it', async ({
  browser,
  baseURL,
}) => {
  const user = await newChatUser(browser, baseURL, 'Đột Phá');
  users.push(user);
  const page = user.page;

  await page.goto('/ho-so');
  const setting = page.getByTestId('announce-breakthrough');
  await expect(setting).not.toBeChecked();
  await setting.click();
  await expect(setting).toBeChecked();
  await expect(toasts(page).filter({ hasText: 'Đã bật thông báo đột phá.' })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('announce-breakthrough')).toBeChecked();

  await page.goto('/');
  await expect(bell(page)).toBeVisible(CONNECTED);
  await setTuViAsAdmin(baseURL, user.email, 5_000);
  await expect(page.getByTestId('notification-count')).toHaveText('1');
  await expect(
    toasts(page).filter({ hasText: 'Đột phá! Đạo hữu đã đạt cảnh giới Trúc Cơ Sơ Kỳ' }),
  ).toBeVisible();
  await bell(page).click();
  await expect(panelItems(page)).toHaveCount(1);
  await expect(panelItems(page).first()).toHaveText(
    /Đột phá! Đạo hữu đã đạt cảnh giới Trúc Cơ Sơ Kỳ/,
  );
  await page.keyboard.press('Escape');

  // Falling back and rising again tells the cultivator again, but not the square.
  await setTuViAsAdmin(baseURL, user.email, 0);
  await setTuViAsAdmin(baseURL, user.email, 5_000);
  await expect(page.getByTestId('notification-count')).toHaveText('2');

  await openChat(page, '/chat/sect/quang-truong', CONNECTED);
  await expect(announcements(page, user.daoHieu)).toHaveCount(1);
  await expect(announcements(page, user.daoHieu)).toContainText('Trúc Cơ Sơ Kỳ');
});

test('without the setting the square hears nothing, and the bell pages older notifications with "Xem thêm"', async ({
  browser,
  baseURL,
}) => {
  const user = await newChatUser(browser, baseURL, 'Khổ Tu');
  users.push(user);
  const page = user.page;
  await page.goto('/');
  await expect(bell(page)).toBeVisible(CONNECTED);

  // 31 realms crossed one after another: one notification each, one more than the panel's first page.
  const base = baseURL as string;
  const admin = await request.newContext({ baseURL: base });
  try {
    await signInViaApi(admin, base, ADMIN);
    const headers = { Origin: new URL(base).origin };
    const list = await admin.get('/api/admin/users', { params: { query: user.email }, headers });
    const { users: found } = (await list.json()) as { users: { id: string }[] };
    for (const upper of REALM_UPPERS) {
      const patch = await admin.patch(`/api/admin/users/${found[0]!.id}`, {
        data: { tuVi: upper + 1 },
        headers,
      });
      expect(patch.status()).toBe(200);
    }
  } finally {
    await admin.dispose();
  }
  await expect(page.getByTestId('notification-count')).toHaveText('31');

  await bell(page).click();
  await expect(panelItems(page)).toHaveCount(30);
  await page.getByTestId('notification-more').click();
  await expect(panelItems(page)).toHaveCount(31);
  await expect(panelItems(page).last()).toContainText('Luyện Khí Tầng 2');
  await expect(page.getByTestId('notification-more')).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Each change was answered only after its announcement (if any) was sent: none can still be on its way.
  await openChat(page, '/chat/sect/quang-truong', CONNECTED);
  await expect(channelComposer(page)).toBeVisible();
  await expect(announcements(page, user.daoHieu)).toHaveCount(0);
});

/** Counts permission requests and records the browser notifications shown; the tab is hidden when the test says. */
const RECORD_NOTIFICATIONS = () => {
  const Real = window.Notification;
  const record = { asked: 0, shown: [] as string[], hidden: false };
  class Recording extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      record.shown.push(title);
    }
    static override get permission() {
      return Real.permission;
    }
    static override requestPermission(...args: Parameters<typeof Real.requestPermission>) {
      record.asked += 1;
      return Real.requestPermission(...args);
    }
  }
  Object.defineProperty(window, 'Notification', { value: Recording, configurable: true });
  Object.defineProperty(document, 'visibilityState', {
    get: () => (record.hidden ? 'hidden' : 'visible'),
    configurable: true,
  });
  (window as unknown as { __notifications: typeof record }).__notifications = record;
};

type Recorded = { asked: number; shown: string[]; hidden: boolean };
const recorded = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notifications: Recorded }).__notifications);

test('browser notifications are asked for only from the opt-in click, never before', async ({
  browser,
  baseURL,
}) => {
  const a = await newChatUser(browser, baseURL, 'Nhận Tin');
  users.push(a);
  await a.context.addInitScript(RECORD_NOTIFICATIONS);
  await a.page.goto('/');
  await expect(bell(a.page)).toBeVisible(CONNECTED);

  // A notification arrives and the panel opens before the opt-in: nothing is asked, nothing shown.
  await setTuViAsAdmin(baseURL, a.email, 5_000);
  await expect(a.page.getByTestId('notification-count')).toHaveText('1');
  await bell(a.page).click();
  const toggle = a.page.getByTestId('browser-notifications-toggle');
  await expect(toggle).toHaveText('Bật thông báo trên trình duyệt');
  expect(await recorded(a.page)).toMatchObject({ asked: 0, shown: [] });

  await a.context.grantPermissions(['notifications']);
  await toggle.click();
  await expect(toggle).toHaveText('Tắt thông báo trên trình duyệt');
  expect((await recorded(a.page)).asked).toBe(1);

  // The choice is kept in this browser: after a reload it is still on, and nothing is asked again.
  await a.page.reload();
  await expect(bell(a.page)).toBeVisible(CONNECTED);
  await bell(a.page).click();
  await expect(a.page.getByTestId('browser-notifications-toggle')).toHaveText(
    'Tắt thông báo trên trình duyệt',
  );
  expect((await recorded(a.page)).asked).toBe(0);
});

test('once opted in, a direct message shows a browser notification while the panel is closed and the tab hidden', async ({
  browser,
  baseURL,
}) => {
  const a = await newChatUser(browser, baseURL, 'Nhận Tin');
  const b = await newChatUser(browser, baseURL, 'Gửi Tin');
  users.push(a, b);
  await a.context.addInitScript(RECORD_NOTIFICATIONS);
  await a.context.grantPermissions(['notifications']);
  await a.page.goto('/');
  await expect(bell(a.page)).toBeVisible(CONNECTED);
  await bell(a.page).click();
  await a.page.getByTestId('browser-notifications-toggle').click();
  await expect(a.page.getByTestId('browser-notifications-toggle')).toHaveText(
    'Tắt thông báo trên trình duyệt',
  );
  // The panel closes and the tab goes to the background: the browser notification is what is left.
  await a.page.keyboard.press('Escape');
  await expect(a.page.getByTestId('notification-panel')).toHaveCount(0);
  await a.page.evaluate(() => {
    (window as unknown as { __notifications: Recorded }).__notifications.hidden = true;
  });

  await openChat(b.page);
  await startDirectMessage(b.page, a);
  await send(channelComposer(b.page), 'Đạo hữu có nhà không?');
  await expect(channelMessage(b.page, 'Đạo hữu có nhà không?')).toBeVisible();
  await expect
    .poll(async () => (await recorded(a.page)).shown)
    .toEqual([`Tin nhắn từ ${b.daoHieu}`]);
});
