import { expect, test, type Page } from '@playwright/test';
import {
  channelComposer,
  channelMessage,
  closeChatUsers,
  newChatUser,
  startDirectMessage,
  toasts,
  type ChatUser,
} from './chat-support';
import { snap } from './support';

function bell(page: Page) {
  return page.getByTestId('notification-bell');
}

function bellCount(page: Page) {
  return page.getByTestId('notification-count');
}

function panelItems(page: Page) {
  return page.getByTestId('notification-panel').getByTestId('notification-item');
}

/** Types `@` and the first word of the name, then picks the cultivator from the composer's suggestions. */
async function mention(page: Page, who: ChatUser, text: string): Promise<void> {
  const composer = channelComposer(page);
  await composer.click();
  await composer.pressSequentially(`@${who.daoHieu.split(' ')[0]}`);
  await page.locator('.str-chat__suggestion-list-item').filter({ hasText: who.daoHieu }).click();
  await composer.pressSequentially(text);
  await composer.press('Enter');
}

test('a mention rings the bell and shows a toast; the notification opens the message and stays read after a reload', async ({
  browser,
  baseURL,
}) => {
  // Two cultivators, two browsers, a reload: more than the default 30 s on a loaded machine.
  test.setTimeout(90_000);
  let a: ChatUser | undefined;
  let b: ChatUser | undefined;
  try {
    a = await newChatUser(browser, baseURL, 'Hàn Lập');
    b = await newChatUser(browser, baseURL, 'Bạch Vân');
    // A is elsewhere in the app, not looking at the conversation.
    await a.page.goto('/');
    // The bell comes with the chat connection, which a loaded machine may take a while to open.
    await expect(bell(a.page)).toBeVisible({ timeout: 20_000 });
    await expect(bellCount(a.page)).toHaveCount(0);

    await b.page.goto('/chat');
    await expect(b.page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible({
      timeout: 20_000,
    });
    await startDirectMessage(b.page, a);
    await mention(b.page, a, ' ghé động phủ ta uống trà');
    await expect(channelMessage(b.page, 'ghé động phủ')).toBeVisible();

    await expect(bellCount(a.page)).toHaveText('1');
    await expect(
      toasts(a.page).filter({ hasText: `${b.daoHieu} nhắc đến bạn trong` }),
    ).toBeVisible();

    await bell(a.page).click();
    await expect(panelItems(a.page)).toHaveCount(1);
    await expect(panelItems(a.page).first()).toContainText(`${b.daoHieu} nhắc đến bạn`);
    await expect(panelItems(a.page).first()).toHaveAttribute('data-unread', 'true');
    await snap(a.page, 'notifications-panel');
    await panelItems(a.page).first().click();

    await expect(a.page).toHaveURL(/\/chat\/messaging\/[^/?]+/);
    await expect(channelMessage(a.page, 'ghé động phủ')).toBeVisible();
    await expect(bellCount(a.page)).toHaveCount(0);

    await a.page.reload();
    await expect(bell(a.page)).toBeVisible({ timeout: 20_000 });
    await bell(a.page).click();
    await expect(panelItems(a.page)).toHaveCount(1);
    await expect(panelItems(a.page).first()).toHaveAttribute('data-unread', 'false');
    await expect(bellCount(a.page)).toHaveCount(0);
  } finally {
    await closeChatUsers(a, b);
  }
});

test('a guest sees no bell', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Giao diện' })).toBeVisible();
  await expect(bell(page)).toHaveCount(0);
});
