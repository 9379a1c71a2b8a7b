import { expect as baseExpect, test, type Page } from '@playwright/test';
import {
  channelComposer,
  channelMessage,
  closeChatUsers,
  newChatUser,
  toasts,
  type ChatUser,
} from './chat-support';
import { snap } from './support';

// Browsers here share a few cores with other runs: loading the chat bundle alone can take many seconds.
const expect = baseExpect.configure({ timeout: 20_000 });

/** Starts a direct message with `other` through the "Cuộc trò chuyện mới" dialog (chat-support's, with our waits). */
async function startDirectMessage(page: Page, other: ChatUser): Promise<void> {
  await page.getByRole('button', { name: 'Cuộc trò chuyện mới' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cuộc trò chuyện mới' });
  await dialog.getByLabel('Đạo hiệu').fill(other.daoHieu);
  await dialog.getByRole('checkbox', { name: new RegExp(other.daoHieu) }).click();
  await dialog.getByRole('button', { name: 'Nhắn tin' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/chat\/messaging\/[^/]+$/);
}

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
  // Enter picks a suggestion only once the list has settled on its answer for what was typed.
  const suggestions = page.getByRole('listbox', { name: 'Gợi ý nhắc tên' });
  await expect(suggestions.getByRole('option', { name: new RegExp(who.daoHieu) })).toBeVisible();
  await expect(suggestions.getByRole('option')).toHaveCount(1);
  await composer.press('Enter');
  await expect(suggestions).toBeHidden();
  await expect(composer).toHaveValue(`@${who.daoHieu} `);
  await composer.pressSequentially(text);
  await composer.press('Enter');
}

test('a mention rings the bell and shows a toast; the notification opens the message and stays read after a reload', async ({
  browser,
  baseURL,
}) => {
  // Two cultivators, two browsers, a reload: more than the default 30 s on a loaded machine.
  test.setTimeout(180_000);
  let a: ChatUser | undefined;
  let b: ChatUser | undefined;
  try {
    a = await newChatUser(browser, baseURL, 'Hàn Lập');
    b = await newChatUser(browser, baseURL, 'Bạch Vân');
    // A is elsewhere in the app, not looking at the conversation.
    await a.page.goto('/');
    // The bell comes with the chat connection, which a loaded machine may take a while to open.
    await expect(bell(a.page)).toBeVisible({ timeout: 45_000 });
    await expect(bellCount(a.page)).toHaveCount(0);

    await b.page.goto('/chat');
    await expect(b.page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible({
      timeout: 45_000,
    });
    await startDirectMessage(b.page, a);
    // Opening the conversation added A to it: the first notification.
    await expect(bellCount(a.page)).toHaveText('1');
    await mention(b.page, a, 'ghé động phủ ta uống trà');
    await expect(channelMessage(b.page, 'ghé động phủ')).toBeVisible();

    await expect(bellCount(a.page)).toHaveText('2');
    await expect(
      toasts(a.page).filter({ hasText: `${b.daoHieu} nhắc đến đạo hữu trong` }),
    ).toBeVisible();

    await bell(a.page).click();
    const mentioned = panelItems(a.page).filter({ hasText: `${b.daoHieu} nhắc đến đạo hữu` });
    await expect(panelItems(a.page)).toHaveCount(2);
    await expect(panelItems(a.page).first()).toContainText(`${b.daoHieu} nhắc đến đạo hữu`);
    await expect(mentioned).toHaveAttribute('data-unread', 'true');
    await snap(a.page, 'notifications-panel');
    await mentioned.click();

    await expect(a.page).toHaveURL(/\/chat\/messaging\/[^/?]+/);
    await expect(channelMessage(a.page, 'ghé động phủ')).toBeVisible();
    await expect(bellCount(a.page)).toHaveText('1');

    await a.page.reload();
    await expect(bell(a.page)).toBeVisible({ timeout: 45_000 });
    await expect(bellCount(a.page)).toHaveText('1');
    await bell(a.page).click();
    await expect(panelItems(a.page)).toHaveCount(2);
    await expect(mentioned).toHaveAttribute('data-unread', 'false');

    // A is now looking at the conversation: a new mention there counts on the bell, without a toast over it.
    await a.page.keyboard.press('Escape');
    await mention(b.page, a, 'nhớ mang theo linh trà');
    await expect(channelMessage(a.page, 'nhớ mang theo linh trà')).toBeVisible();
    await expect(bellCount(a.page)).toHaveText('2');
    // A toast follows the count within a frame or two; give it time to show before saying there is none.
    await a.page.waitForTimeout(1_000);
    // Counted once, not awaited: a toast leaves by itself after a few seconds, so waiting for none would pass anyway.
    expect(await toasts(a.page).filter({ hasText: 'nhắc đến đạo hữu' }).count()).toBe(0);
  } finally {
    await closeChatUsers(a, b);
  }
});

test('a guest sees no bell', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Giao diện' })).toBeVisible();
  await expect(bell(page)).toHaveCount(0);
});
