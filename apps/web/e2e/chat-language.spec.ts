import { expect, test } from '@playwright/test';
import { channelComposer, newChatUser, openChat } from './chat-support';
import { snap } from './support';

test('the chat speaks Vietnamese by default and English once chosen in the account menu, like the rest of the app', async ({
  browser,
  baseURL,
}) => {
  const user = await newChatUser(browser, baseURL, 'Lam Y');
  const { page } = user;
  try {
    await openChat(page, '/chat/sect/quang-truong');
    await expect(channelComposer(page)).toHaveAttribute('placeholder', 'Gửi tin nhắn');
    await expect(page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible();

    await page.getByRole('button', { name: `Tài khoản: ${user.daoHieu}` }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await page.keyboard.press('Escape');

    // stream-chat-react's own English texts, and the app's menu around the chat.
    await expect(channelComposer(page)).toHaveAttribute('placeholder', 'Send a message');
    await expect(page.getByRole('listbox', { name: 'Channel list' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Home' })).toBeVisible();
    await snap(page, 'chat-english');

    // Remembered across a reload.
    await page.reload();
    await expect(channelComposer(page)).toHaveAttribute('placeholder', 'Send a message');

    await page.getByRole('button', { name: `Account: ${user.daoHieu}` }).click();
    await page.getByRole('menuitemradio', { name: 'Tiếng Việt' }).click();
    await page.keyboard.press('Escape');
    await expect(channelComposer(page)).toHaveAttribute('placeholder', 'Gửi tin nhắn');
  } finally {
    await user.context.close();
  }
});
