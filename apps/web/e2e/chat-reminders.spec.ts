import { expect, test } from '@playwright/test';
import {
  channelComposer,
  channelMessage,
  chatApi,
  closeChatUsers,
  messageAction,
  newChatUser,
  openDirectMessage,
  send,
  toasts,
  type ChatUser,
} from './chat-support';

// A cultivator sets reminders and bookmarks in a direct message, finds them on /nhac-nho, and is told when one is due.
test.describe.configure({ mode: 'serial' });

let a: ChatUser;
let b: ChatUser;
let channelId: string;
const tag = Date.now().toString(36);
const remindText = `Nhớ luyện đan ${tag}`;
const savedText = `Công pháp cần đọc lại ${tag}`;
const dueText = `Giờ Tý xuất quan ${tag}`;

test.beforeAll(async ({ browser, baseURL }) => {
  a = await newChatUser(browser, baseURL, 'Hay Quên');
  b = await newChatUser(browser, baseURL, 'Bạn Nhắc');
  const dmPath = await openDirectMessage(a, b);
  channelId = decodeURIComponent(dmPath.split('/').pop() ?? '');
});

test.afterAll(async () => closeChatUsers(a, b));

test('"Nhắc tôi" offers the delays and sets a reminder', async () => {
  await send(channelComposer(a.page), remindText);
  const message = channelMessage(a.page, remindText);
  await expect(message).toBeVisible();
  // stream-chat-react 14.12 swaps this item's aria-label ("Xóa lời nhắc" while no reminder is set), so it is found
  // by its visible text.
  await message.hover();
  await message.getByRole('button', { name: 'Mở menu thao tác với tin nhắn' }).click();
  await a.page.getByRole('menuitem').filter({ hasText: 'Nhắc tôi' }).click();
  const submenu = a.page.getByRole('menu', { name: 'Menu con' });
  for (const delay of [
    'Sau 2 phút',
    'Sau 30 phút',
    'Sau 1 giờ',
    'Sau 2 giờ',
    'Sau 8 giờ',
    'Sau 1 ngày',
  ]) {
    await expect(submenu.getByRole('menuitem', { name: delay, exact: true })).toBeVisible();
  }
  await submenu.getByRole('menuitem', { name: 'Sau 2 phút', exact: true }).click();
  await expect(toasts(a.page).filter({ hasText: 'Đã đặt lời nhắc' })).toBeVisible();
});

test('"Lưu để xem sau" saves a message', async () => {
  await send(channelComposer(a.page), savedText);
  const message = channelMessage(a.page, savedText);
  await expect(message).toBeVisible();
  await messageAction(message, 'Lưu tin nhắn để xem sau');
  await expect(toasts(a.page).filter({ hasText: 'Đã lưu để xem sau' })).toBeVisible();
});

test('the reminders screen lists upcoming and saved messages with links to them', async () => {
  await a.page.getByRole('link', { name: 'Nhắc nhở' }).click();
  await expect(a.page).toHaveURL('/nhac-nho');
  const upcoming = a.page.getByRole('region', { name: /Sắp tới/ });
  const saved = a.page.getByRole('region', { name: /Đã lưu để xem sau/ });
  await expect(upcoming.getByRole('link', { name: remindText })).toBeVisible();
  await expect(saved.getByRole('link', { name: savedText })).toBeVisible();

  await saved.getByRole('link', { name: savedText }).click();
  await expect(a.page).toHaveURL(new RegExp(`/chat/messaging/[^?]+$`));
  await expect(channelMessage(a.page, savedText)).toBeVisible();
});

test('a reminder that comes due shows a toast and moves to overdue', async () => {
  await a.page.goto('/nhac-nho');
  await expect(a.page.getByRole('region', { name: /Sắp tới/ })).toBeVisible();
  const messageId = `due-${tag}`;
  await chatApi(a.context.request, `/channels/messaging/${encodeURIComponent(channelId)}/message`, {
    message: { id: messageId, text: dueText },
  });
  await chatApi(a.context.request, `/messages/${encodeURIComponent(messageId)}/reminders`, {
    remind_at: new Date(Date.now() + 3_000).toISOString(),
  });
  await expect(
    a.page.getByRole('region', { name: /Sắp tới/ }).getByRole('link', { name: dueText }),
  ).toBeVisible();

  // The server's scheduler sends notification.reminder_due a few seconds from now.
  const toast = toasts(a.page)
    .filter({ hasText: 'Đến giờ xem lại tin nhắn' })
    .filter({ hasText: dueText });
  await expect(toast).toBeVisible({ timeout: 15_000 });
  await expect(
    a.page.getByRole('region', { name: /Quá hạn/ }).getByRole('link', { name: dueText }),
  ).toBeVisible();

  await toast.getByRole('button', { name: 'Xem tin nhắn' }).click();
  await expect(a.page).toHaveURL(/\/chat\/messaging\//);
  await expect(channelMessage(a.page, dueText)).toBeVisible();
});
