import { expect, test } from '@playwright/test';
import {
  channelComposer,
  channelListItem,
  channelMessage,
  messageAction,
  newChatUser,
  openChat,
  send,
  sidebarChatBadge,
  startDirectMessage,
  toasts,
} from './chat-support';
import { snap } from './support';

test("B's unread badge rises with A's messages and clears when B opens the conversation", async ({
  browser,
  baseURL,
}) => {
  const a = await newChatUser(browser, baseURL, 'Tiêu Dao');
  const b = await newChatUser(browser, baseURL, 'Bích Lạc');
  try {
    // B is elsewhere in the app: only the sidebar can tell them something arrived.
    await b.page.goto('/');
    await expect(b.page.getByRole('link', { name: 'Trò chuyện' })).toBeVisible();
    await expect(sidebarChatBadge(b.page)).toHaveCount(0);

    await openChat(a.page);
    await startDirectMessage(a.page, b);
    await send(channelComposer(a.page), 'Đạo hữu có nhà không?');
    await expect(sidebarChatBadge(b.page)).toHaveText('1');
    await send(channelComposer(a.page), 'Ta mang trà Long Tỉnh đến đây.');
    await expect(channelMessage(a.page, 'Long Tỉnh')).toBeVisible();
    await expect(sidebarChatBadge(b.page)).toHaveText('2');
    await expect(sidebarChatBadge(b.page)).toHaveAttribute('aria-label', '2 tin nhắn chưa đọc');
    await snap(b.page, 'chat-unread-sidebar');

    // In the chat, the conversation carries the same count until B opens it.
    await b.page.getByRole('link', { name: 'Trò chuyện' }).click();
    const item = channelListItem(b.page, a.daoHieu);
    await expect(item.getByTestId('unread-badge')).toHaveText('2');
    await item.click();
    await expect(channelMessage(b.page, 'Long Tỉnh')).toBeVisible();
    await expect(item.getByTestId('unread-badge')).toHaveCount(0);
    await expect(sidebarChatBadge(b.page)).toHaveCount(0);

    // A new message while B has the conversation open is read on arrival.
    await send(channelComposer(a.page), 'Trà nguội mất rồi.');
    await expect(channelMessage(b.page, 'Trà nguội')).toBeVisible();
    await expect(sidebarChatBadge(b.page)).toHaveCount(0);

    // "Mark as unread" from a message brings the badge back, counting from that message.
    await messageAction(channelMessage(b.page, 'Long Tỉnh'), 'Đánh dấu tin nhắn là chưa đọc');
    await expect(
      toasts(b.page).filter({ hasText: 'Đã đánh dấu tin nhắn là chưa đọc' }),
    ).toBeVisible();
    await expect(sidebarChatBadge(b.page)).toHaveText('2');
    // It stays so: reading on arrival must not undo the mark a moment later.
    await b.page.waitForTimeout(1_500);
    await expect(sidebarChatBadge(b.page)).toHaveText('2');
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
