import { expect, test } from '@playwright/test';
import {
  channelComposer,
  channelListItem,
  channelMessage,
  closeChatUsers,
  messageAction,
  newChatUser,
  openChat,
  send,
  sidebarChatBadge,
  type ChatUser,
} from './chat-support';
import { snap } from './support';

// The public sect channels have read state, unread counts and typing for every signed-in cultivator (the chat
// server's `sect` type), and a member may edit their own message there.
const GIAO_DICH = '/chat/sect/giao-dich';
const tag = Date.now().toString(36);

// Two cultivators sign up and load the chat in two contexts: more work than one test's default budget on a busy machine.
test.slow();

test('a sect channel counts unread messages, shows typing, and lets a member edit their own message', async ({
  browser,
  baseURL,
}) => {
  let a: ChatUser | undefined;
  let b: ChatUser | undefined;
  try {
    a = await newChatUser(browser, baseURL, 'Thanh Vân');
    b = await newChatUser(browser, baseURL, 'Lạc Hà');
    // A is elsewhere in the app: only the sidebar and the tab title can tell them something arrived.
    await a.page.goto('/');
    await expect(a.page.getByRole('link', { name: 'Trò chuyện' })).toBeVisible();
    await expect(sidebarChatBadge(a.page)).toHaveCount(0);
    await expect(a.page).toHaveTitle(/^(?!\().*Đạo Hữu$/);

    const offer = `Bán một bình Trúc Cơ Đan ${tag}`;
    await openChat(b.page, GIAO_DICH);
    await send(channelComposer(b.page), offer);
    await expect(channelMessage(b.page, offer)).toBeVisible();

    await expect(sidebarChatBadge(a.page)).toHaveText('1');
    await expect(a.page).toHaveTitle(/^\(1\) .*Đạo Hữu$/);

    // In the chat, the sect channel's row carries the count until A opens it.
    await a.page.getByRole('link', { name: 'Trò chuyện' }).click();
    await expect(a.page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible();
    const row = channelListItem(a.page, 'Giao Dịch');
    await expect(row.getByTestId('unread-badge')).toHaveText('1');
    await snap(a.page, 'sect-alive-unread');
    const bComposer = channelComposer(b.page);

    // B types in the channel: A, who opens it now, sees who is typing.
    await row.click();
    await expect(channelMessage(a.page, offer)).toBeVisible();
    await expect(row.getByTestId('unread-badge')).toHaveCount(0);
    await expect(sidebarChatBadge(a.page)).toHaveCount(0);
    await bComposer.click();
    await bComposer.pressSequentially('Ai mua', { delay: 20 });
    const typing = a.page.getByTestId('typing-indicator-header');
    await expect(typing).toContainText(b.daoHieu);
    await expect(typing).toContainText('đang nhập');
    await snap(a.page, 'sect-alive-typing');
    await bComposer.fill('');

    // A edits their own message in the sect channel: both see it marked edited.
    const question = `Giá bao nhiêu linh thạch? ${tag}`;
    const edited = `Giá bao nhiêu hạ phẩm linh thạch? ${tag}`;
    await send(channelComposer(a.page), question);
    await expect(channelMessage(b.page, question)).toBeVisible();
    await messageAction(channelMessage(a.page, question), 'Sửa tin nhắn');
    const composer = channelComposer(a.page);
    await expect(composer).toHaveValue(question);
    await composer.fill(edited);
    await composer.press('Enter');
    await expect(composer).toHaveValue('');
    for (const page of [a.page, b.page]) {
      await expect(channelMessage(page, edited)).toBeVisible();
      await expect(channelMessage(page, edited)).toContainText('Đã sửa');
    }
  } finally {
    await closeChatUsers(a, b);
  }
});

test('an old livestream link of a sect channel opens the sect channel', async ({ page }) => {
  await page.goto('/chat/livestream/luan-dao');
  await expect(page).toHaveURL('/chat/sect/luan-dao');
  await expect(page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible();
});
