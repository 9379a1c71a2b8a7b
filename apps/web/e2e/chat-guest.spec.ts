import { expect, test } from '@playwright/test';
import { channelComposer, channelMessage, openChat, send } from './chat-support';
import { newCultivator, registerElsewhere, snap } from './support';

const GUEST_PLACEHOLDER = 'Đăng nhập để gửi tin nhắn…';

test.describe('a guest in the chat', () => {
  test('reads the public sect channel and cannot write', async ({ page }) => {
    await openChat(page);
    // /chat opens the first public sect channel on a desktop screen.
    await expect(page).toHaveURL('/chat/sect/quang-truong');
    await expect(page.getByRole('heading', { level: 2, name: 'Quảng Trường' })).toBeVisible();
    await expect(page.locator('.str-chat__main-panel .str-chat__message').first()).toBeVisible();
    // Only the public channels are listed, and the composer is the read-only stand-in.
    await expect(page.getByTestId('channel-list-item-button')).toHaveCount(3);
    await expect(page.getByPlaceholder(GUEST_PLACEHOLDER)).toBeVisible();
    await expect(channelComposer(page)).toHaveCount(0);
    await snap(page, 'chat-guest');
  });

  test('gets the login dialog when trying to write or react', async ({ page }) => {
    await openChat(page, '/chat/sect/luan-dao');
    const dialog = page.getByRole('dialog', { name: 'Chào mừng trở lại' });

    await page.getByPlaceholder(GUEST_PLACEHOLDER).click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // Focus comes back to the page without opening the dialog again.
    await expect(dialog).toBeHidden();

    // The newest message: hovering the oldest could scroll the list into loading older ones.
    const message = page.locator('.str-chat__main-panel .str-chat__message').last();
    await message.hover();
    await message.getByRole('button', { name: 'Mở bảng chọn biểu cảm' }).click();
    await expect(dialog).toBeVisible();
  });

  test('is connected as the cultivator after signing in, and back as a guest after signing out, without a reload', async ({
    page,
    baseURL,
  }) => {
    const who = newCultivator('Khách Lạ');
    if (!baseURL) throw new Error('No baseURL.');
    await registerElsewhere(baseURL, who);

    await openChat(page, '/chat/sect/giao-dich');
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    await page.getByPlaceholder(GUEST_PLACEHOLDER).click();
    const dialog = page.getByRole('dialog', { name: 'Chào mừng trở lại' });
    await dialog.getByLabel('Email').fill(who.email);
    await dialog.getByLabel('Mật khẩu').fill(who.password);
    await dialog.getByRole('button', { name: 'Đăng nhập' }).click();
    await expect(dialog).toBeHidden();

    // Same channel, now with a real composer, and the message goes out under the cultivator's name.
    await expect(page).toHaveURL('/chat/sect/giao-dich');
    await expect(channelComposer(page)).toBeVisible();
    await send(channelComposer(page), 'Tại hạ mới đến, xin chỉ giáo.');
    const message = channelMessage(page, 'xin chỉ giáo');
    await expect(message).toBeVisible();
    await expect(message.getByTestId('message-author')).toContainText('Bạn');
    await expect(message.getByTestId('realm-badge')).toHaveText('Luyện Khí Tầng 1');
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);

    // In a public channel only moderators pin: the member's menu offers editing but no pin.
    await message.hover();
    await message.getByRole('button', { name: 'Mở menu thao tác với tin nhắn' }).click();
    await expect(page.getByRole('menuitem', { name: 'Sửa tin nhắn' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Ghim tin nhắn' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    // Signing out drops the chat back to a read-only guest, still without a reload.
    await page.getByRole('button', { name: `Tài khoản: ${who.daoHieu}` }).click();
    await page.getByRole('menuitem', { name: 'Đăng xuất' }).click();
    await expect(page.getByPlaceholder(GUEST_PLACEHOLDER)).toBeVisible();
    await expect(channelComposer(page)).toHaveCount(0);
    await expect(channelMessage(page, 'xin chỉ giáo')).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);
  });
});
