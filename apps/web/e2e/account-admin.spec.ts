import { expect, test, type Browser, type Page } from '@playwright/test';
import { StreamChat } from 'stream-chat';
import {
  channelComposer,
  channelMessage,
  closeChatUsers,
  newChatUser,
  openChat,
  send,
} from './chat-support';
import {
  ADMIN,
  VIEWPORTS,
  newCultivator,
  signInViaApi,
  signUpViaApi,
  sidebarFooter,
  type Cultivator,
} from './support';

// Account screens (password, avatar, sign-in link) and the admin and realm pages at desktop and phone widths.
test.slow();

/** The first look after a navigation: a screen's code loads on demand, slowly on a loaded machine. */
const SCREEN = { timeout: 30_000 };

/** A 1×1 PNG: enough for an avatar upload. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function pageAs(
  browser: Browser,
  baseURL: string | undefined,
  who: Cultivator | typeof ADMIN,
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
  { signUp = false } = {},
): Promise<Page> {
  const base = baseURL ?? '';
  const context = await browser.newContext({ baseURL: base, viewport, locale: 'vi-VN' });
  if (signUp) await signUpViaApi(context.request, base, who as Cultivator);
  else await signInViaApi(context.request, base, who);
  return context.newPage();
}

/** Whether anything on the page or inside `selector` scrolls sideways. */
async function scrollsSideways(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((inner) => {
    const scrolls = (element: Element | null) =>
      !!element && element.scrollWidth > element.clientWidth + 1;
    return scrolls(document.scrollingElement) || scrolls(document.querySelector(inner));
  }, selector);
}

test('/quan-tri opens the admin home with a way to each admin screen', async ({
  browser,
  baseURL,
}) => {
  const page = await pageAs(browser, baseURL, ADMIN);
  await page.goto('/quan-tri');
  await expect(page.getByRole('heading', { name: 'Quản trị', level: 1 })).toBeVisible(SCREEN);
  const areas = page.getByRole('navigation', { name: 'Khu vực quản trị' });
  for (const name of ['Người dùng', 'Kiểm duyệt', 'Chiến dịch']) {
    await expect(areas.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible();
  }
  await areas.getByRole('link', { name: /^Người dùng/ }).click();
  await expect(page).toHaveURL(/\/quan-tri\/nguoi-dung$/);
  await expect(page.getByRole('heading', { name: 'Người dùng', level: 1 })).toBeVisible(SCREEN);
  await page.context().close();
});

test('/quan-tri turns a cultivator without a staff role away', async ({ browser, baseURL }) => {
  const page = await pageAs(browser, baseURL, newCultivator('Khách'), VIEWPORTS.desktop, {
    signUp: true,
  });
  await page.goto('/quan-tri');
  await expect(page.getByRole('heading', { name: 'Không có quyền truy cập' })).toBeVisible(SCREEN);
  await expect(page.getByRole('navigation', { name: 'Khu vực quản trị' })).toHaveCount(0);
  await page.context().close();
});

for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.mobile]) {
  test(`the users table shows every "Lưu" whole at ${viewport.width} px, without a sideways scroll`, async ({
    browser,
    baseURL,
  }) => {
    const page = await pageAs(browser, baseURL, ADMIN, viewport);
    await page.goto('/quan-tri/nguoi-dung');
    const save = page.getByRole('button', { name: /^Lưu thay đổi cho / }).first();
    await expect(save).toBeVisible(SCREEN);
    await expect(save).toBeInViewport({ ratio: 1 });
    expect(await scrollsSideways(page, 'table')).toBe(false);
    expect(await scrollsSideways(page, 'div:has(> table)')).toBe(false);
    if (viewport.width < 768) {
      // A card: the header row steps aside and each field says what it is.
      await expect(page.locator('thead')).toBeHidden();
      const card = page.locator('tr[data-user-id]').first();
      const labels = await card
        .locator('td[data-label]')
        .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
      expect(labels).toEqual(['"Vai trò"', '"Tu vi"', '"Cảnh giới"', '"Số dư"']);
      const box = await card.boundingBox();
      expect(box?.width ?? Infinity).toBeLessThanOrEqual(viewport.width);
    }
    await page.context().close();
  });
}

test('the realm table at 375 px shows the tu vi thresholds without a sideways scroll', async ({
  page,
}) => {
  await page.setViewportSize(VIEWPORTS.mobile);
  await page.goto('/canh-gioi');
  const table = page.locator('[data-slot="realm-table"]');
  const last = table.getByRole('row').last();
  await expect(last).toContainText('Tiên Nhân', SCREEN);
  // Below the fold is fine (the page scrolls down); off to the side is not.
  await last.scrollIntoViewIfNeeded();
  await expect(last.getByText('trên 500.000.000.000')).toBeInViewport({ ratio: 1 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const firstRealm = table.getByRole('row').filter({ hasText: 'Luyện Khí Tầng 1' });
  await expect(firstRealm.getByRole('cell').last()).toBeInViewport({ ratio: 1 });
  expect(await scrollsSideways(page, 'div:has(> [data-slot="realm-table"])')).toBe(false);
});

test('the password fields can show and hide what was typed', async ({ page }) => {
  await page.goto('/?dang-nhap=1');
  const dialog = page.getByRole('dialog');
  const password = dialog.getByLabel('Mật khẩu', { exact: true });
  await expect(password).toBeVisible(SCREEN);
  await password.fill('bi-mat-tu-tien');
  await expect(password).toHaveAttribute('type', 'password');
  await dialog.getByRole('button', { name: 'Hiện mật khẩu' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await expect(password).toHaveValue('bi-mat-tu-tien');
  await dialog.getByRole('button', { name: 'Ẩn mật khẩu' }).click();
  await expect(password).toHaveAttribute('type', 'password');

  await dialog.getByRole('tab', { name: 'Đăng ký' }).click();
  await dialog.getByRole('button', { name: 'Hiện mật khẩu' }).click();
  await expect(dialog.getByLabel('Mật khẩu', { exact: true })).toHaveAttribute('type', 'text');
});

test('a cultivator changes their password on the profile, then signs in with the new one only', async ({
  browser,
  baseURL,
}) => {
  const who = newCultivator('Đổi Mật Khẩu');
  const page = await pageAs(browser, baseURL, who, VIEWPORTS.desktop, { signUp: true });
  await page.goto('/ho-so');
  const form = page.getByRole('form', { name: 'Đổi mật khẩu' });
  await expect(form).toBeVisible(SCREEN);
  await form.getByLabel('Mật khẩu hiện tại', { exact: true }).fill('khong-phai-mat-khau');
  await form.getByLabel('Mật khẩu mới', { exact: true }).fill('mat-khau-moi-2026');
  await form.getByRole('button', { name: 'Đổi mật khẩu' }).click();
  await expect(form.getByRole('alert')).toHaveText('Mật khẩu hiện tại không đúng.', SCREEN);

  await form.getByLabel('Mật khẩu mới', { exact: true }).fill('ngan');
  await form.getByRole('button', { name: 'Đổi mật khẩu' }).click();
  await expect(form.getByText('Mật khẩu phải có ít nhất 8 ký tự.')).toBeVisible();

  await form.getByLabel('Mật khẩu hiện tại', { exact: true }).fill(who.password);
  await form.getByLabel('Mật khẩu mới', { exact: true }).fill('mat-khau-moi-2026');
  await form.getByRole('button', { name: 'Đổi mật khẩu' }).click();
  await expect(page.getByText('Đã đổi mật khẩu.')).toBeVisible(SCREEN);
  await expect(form.getByLabel('Mật khẩu hiện tại', { exact: true })).toHaveValue('');
  await page.context().close();

  const fresh = await browser.newContext({ baseURL });
  const origin = { Origin: new URL(baseURL ?? '').origin };
  const old = await fresh.request.post('/api/auth/sign-in/email', {
    data: { email: who.email, password: who.password },
    headers: origin,
  });
  expect(old.status()).toBe(401);
  await signInViaApi(fresh.request, baseURL ?? '', {
    email: who.email,
    password: 'mat-khau-moi-2026',
  });
  await fresh.close();
});

test('an uploaded avatar shows in the sidebar, becomes the chat user’s image, and shows beside their messages', async ({
  browser,
  baseURL,
}) => {
  const who = newCultivator('Ảnh Đại Diện');
  const page = await pageAs(browser, baseURL, who, VIEWPORTS.desktop, { signUp: true });
  await page.goto('/ho-so');
  await expect(page.getByRole('button', { name: 'Tải ảnh lên' })).toBeVisible(SCREEN);
  // No avatar yet: the initials stand in.
  await expect(sidebarFooter(page).locator('img')).toHaveCount(0);

  await page.getByLabel('Chọn ảnh đại diện').setInputFiles({
    name: 'chan-dung.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('không phải ảnh'),
  });
  await expect(page.getByRole('alert')).toContainText('Chỉ nhận ảnh PNG, JPEG, WebP hoặc GIF.');

  await expect(page.getByRole('button', { name: 'Tải ảnh lên' })).toBeEnabled({ timeout: 60_000 });
  await page
    .getByLabel('Chọn ảnh đại diện')
    .setInputFiles({ name: 'chan-dung.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('Đã cập nhật ảnh đại diện.')).toBeVisible(SCREEN);
  const avatar = sidebarFooter(page).locator('img');
  await expect(avatar).toHaveAttribute('src', /^\/chat\/uploads\//);
  const path = (await avatar.getAttribute('src')) ?? '';

  const config = (await (await page.request.get('/api/chat/config')).json()) as {
    apiKey: string;
    baseURL: string;
  };
  const { token, userId } = (await (await page.request.get('/api/chat/token')).json()) as {
    token: string;
    userId: string;
  };
  const client = new StreamChat(config.apiKey, {
    baseURL: config.baseURL,
    allowServerSideConnect: true,
  });
  try {
    await client.connectUser({ id: userId }, token);
    const { users } = await client.queryUsers({ id: { $eq: userId } });
    expect(String(users[0]?.image ?? '')).toMatch(new RegExp(`${path.replace(/[?.]/g, '\\$&')}$`));
  } finally {
    await client.disconnectUser();
  }

  // The chat carries the image as an absolute URL on this origin; the page loads it as the same upload.
  await openChat(page, '/chat/sect/giao-dich');
  const text = `Chân dung mới ${Date.now().toString(36)}`;
  await send(channelComposer(page), text);
  // Another cultivator sees the avatar beside the message (one's own messages carry none).
  const reader = await newChatUser(browser, baseURL, 'Người Xem');
  try {
    await openChat(reader.page, '/chat/sect/giao-dich');
    await expect(
      channelMessage(reader.page, text).locator('.str-chat__avatar img'),
    ).toHaveAttribute('src', path);
  } finally {
    await closeChatUsers(reader);
  }

  await page.goto('/ho-so');
  await page.getByRole('button', { name: 'Xóa ảnh' }).click();
  await expect(sidebarFooter(page).locator('img')).toHaveCount(0);
  await page.context().close();
});

test('?dang-nhap=1 opens no dialog for someone already signed in, and the link is cleaned up', async ({
  browser,
  baseURL,
}) => {
  const page = await pageAs(browser, baseURL, newCultivator('Đã Vào'), VIEWPORTS.desktop, {
    signUp: true,
  });
  await page.goto('/canh-gioi?dang-nhap=1');
  await expect(page.getByRole('heading', { name: 'Bảng cảnh giới', level: 1 })).toBeVisible(SCREEN);
  await expect(page).toHaveURL(/\/canh-gioi$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.context().close();
});
