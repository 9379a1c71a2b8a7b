import { expect, test, type Page } from '@playwright/test';
import en from '../src/i18n/locales/en.json' with { type: 'json' };
import vi from '../src/i18n/locales/vi.json' with { type: 'json' };
import { channelComposer, newChatUser, openChat } from './chat-support';
import { snap } from './support';

/** openChat for a page already in English: the SDK's list is then the "Channel list". */
async function openEnglishChat(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('listbox', { name: 'Channel list' })).toBeVisible({
    timeout: 20_000,
  });
}

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

test('in English our own chat components speak the English catalogue: the list, the bell, the reminders screen', async ({
  browser,
  baseURL,
}) => {
  const user = await newChatUser(browser, baseURL, 'Lam Y');
  const { page } = user;
  await page.addInitScript(() => window.localStorage.setItem('chat-language', 'en'));
  try {
    await openEnglishChat(page, '/chat/sect/quang-truong');
    await expect(channelComposer(page)).toHaveAttribute('placeholder', 'Send a message');
    const list = page.locator('.dh-chat__list');
    await expect(
      list.getByRole('heading', { name: en.chat.list.title, exact: true }),
    ).toBeVisible();
    await expect(list.getByRole('group', { name: en.chat.list.sectChannels })).toBeVisible();
    await expect(list.getByRole('button', { name: en.chat.list.newConversation })).toBeVisible();
    await expect(page.getByRole('group', { name: vi.chat.list.sectChannels })).toHaveCount(0);
    await expect(page.locator('.str-chat__main-panel .str-chat__message').first()).toBeVisible();
    await snap(page, 'chat-sect-english');

    await page.getByTestId('notification-bell').click();
    const panel = page.getByTestId('notification-panel');
    await expect(panel.getByText(en.chat.notifications.title, { exact: true })).toBeVisible();
    await expect(panel.getByText(en.chat.notifications.empty)).toBeVisible();
    await page.keyboard.press('Escape');

    await page.goto('/nhac-nho');
    await expect(
      page.getByRole('heading', { name: en.chat.reminders.title, level: 1 }),
    ).toBeVisible({ timeout: 30_000 });
    for (const title of [
      en.chat.reminders.upcoming,
      en.chat.reminders.overdue,
      en.chat.reminders.saved,
    ]) {
      await expect(
        page.getByRole('heading', { name: new RegExp(`^${title}`), level: 2 }),
      ).toBeVisible();
    }
    await expect(page.getByText(en.chat.reminders.upcomingEmpty)).toBeVisible();
    await expect(page.getByText(vi.chat.reminders.upcomingEmpty)).toHaveCount(0);
  } finally {
    await user.context.close();
  }
});

test('a guest who chose English gets the English stand-in composer and guest notice', async ({
  browser,
}) => {
  const context = await browser.newContext();
  await context.addInitScript(() => window.localStorage.setItem('chat-language', 'en'));
  const page = await context.newPage();
  try {
    await openEnglishChat(page, '/chat/sect/quang-truong');
    await expect(page.getByPlaceholder(en.chat.guest.placeholder)).toBeVisible();
    await expect(page.getByRole('textbox', { name: en.chat.guest.composerLabel })).toBeVisible();
    await expect(page.getByText(en.chat.list.guestNotice)).toBeVisible();
    await expect(page.getByPlaceholder(vi.chat.guest.placeholder)).toHaveCount(0);
  } finally {
    await context.close();
  }
});
