import { expect, test } from '@playwright/test';
import { channelComposer, channelMessage, newChatUser, openChat, send } from './chat-support';
import { VIEWPORTS, snap } from './support';

test('a lost connection shows a small banner until the chat is back, and nothing is lost', async ({
  browser,
  baseURL,
}) => {
  // Up to 40 s for the loss to be noticed and 15 s for the way back.
  test.setTimeout(90_000);
  const user = await newChatUser(browser, baseURL, 'Cô Vân');
  try {
    const { page, context } = user;
    await openChat(page, '/chat/sect/luan-dao');
    await expect(channelComposer(page)).toBeVisible();

    await context.setOffline(true);
    const banner = page.getByRole('status').filter({ hasText: 'Mất kết nối, đang kết nối lại…' });
    // stream-chat announces a lost connection once it notices: at once on the browser's offline event, otherwise
    // when its health check (every 25 s) goes unanswered.
    await expect(banner).toBeVisible({ timeout: 40_000 });
    await snap(page, 'chat-offline');

    await context.setOffline(false);
    await expect(banner).toBeHidden({ timeout: 15_000 });
    // A public channel keeps earlier runs' messages: this one is told apart by a suffix of its own.
    const text = `Đã kết nối lại ${Date.now().toString(36)}.`;
    await send(channelComposer(page), text);
    await expect(channelMessage(page, text)).toHaveClass(/str-chat__message--received/);
  } finally {
    await user.context.close();
  }
});

test('a channel that does not exist, or is not theirs, gets a Vietnamese explanation', async ({
  browser,
  baseURL,
}) => {
  const user = await newChatUser(browser, baseURL, 'Lạc Đường');
  try {
    const { page } = user;
    await openChat(page, '/chat/messaging/khong-ton-tai');
    await expect(page.getByText('Không mở được kênh này')).toBeVisible();
    await expect(
      page.getByText('Kênh không tồn tại, hoặc đạo hữu không phải thành viên của kênh.'),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Về danh sách kênh' }).click();
    await expect(page).toHaveURL('/chat/sect/quang-truong');
  } finally {
    await user.context.close();
  }
});

test('a guest opening a private conversation is asked to sign in', async ({ page }) => {
  await openChat(page, '/chat/messaging/khong-cong-khai');
  await expect(page.getByText('Kênh này không công khai.', { exact: false })).toBeVisible();
  await page.locator('.dh-chat__channel').getByRole('button', { name: 'Đăng nhập' }).click();
  await expect(page.getByRole('dialog', { name: 'Chào mừng trở lại' })).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: VIEWPORTS.mobile });

  test('/chat is the channel list, a channel opens full screen, and the back arrow returns to the list', async ({
    page,
  }) => {
    await openChat(page);
    await expect(page).toHaveURL('/chat');
    await snap(page, 'chat-mobile-list');
    await page.getByTestId('channel-list-item-button').filter({ hasText: 'Luận Đạo' }).click();
    await expect(page).toHaveURL('/chat/sect/luan-dao');
    await expect(page.getByRole('heading', { level: 2, name: 'Luận Đạo' })).toBeVisible();
    await expect(page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeHidden();
    await snap(page, 'chat-mobile-channel');
    await page.getByRole('link', { name: 'Về danh sách kênh' }).click();
    await expect(page).toHaveURL('/chat');
    await expect(page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible();
  });
});
