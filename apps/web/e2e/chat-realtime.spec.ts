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
  setTuViAsAdmin,
  startDirectMessage,
  threadComposer,
  threadMessage,
  toasts,
  type ChatUser,
} from './chat-support';
import { snap } from './support';

// Two cultivators in two browsers: everything A does in their direct messages reaches B live, with no reload.
// The steps build on each other (one conversation), so they run in order and stop at the first failure.
test.describe.configure({ mode: 'serial' });

let a: ChatUser;
let b: ChatUser;
let dmPath: string;
const tag = Date.now().toString(36);
const first = `Chào đạo hữu, ${tag} xin ra mắt.`;
const second = `Tin nhắn sẽ được sửa ${tag}`;
const edited = `Tin nhắn đã sửa xong ${tag}`;
const third = `Tin nhắn sẽ bị xóa ${tag}`;
const reply = `Trả lời trong chuỗi ${tag}`;

test.beforeAll(async ({ browser, baseURL }) => {
  a = await newChatUser(browser, baseURL, 'Vân Du');
  b = await newChatUser(browser, baseURL, 'Thanh Phong');
  // Nguyên Anh Trung Kỳ: a realm no freshly signed-up cultivator has.
  await setTuViAsAdmin(baseURL, a.email, 1_500_000);
});

test.afterAll(async () => closeChatUsers(a, b));

test("A's first message in a new direct message reaches B without a reload", async () => {
  await openChat(b.page);
  await openChat(a.page);
  dmPath = await startDirectMessage(a.page, b);
  await expect(a.page.getByRole('heading', { level: 2, name: b.daoHieu })).toBeVisible();

  await send(channelComposer(a.page), first);
  await expect(channelMessage(a.page, first)).toBeVisible();

  // The conversation appears in B's list by itself, with a preview of the message.
  const item = channelListItem(b.page, a.daoHieu);
  await expect(item).toContainText(first);
  await item.click();
  await expect(b.page).toHaveURL(dmPath);
  await expect(channelMessage(b.page, first)).toBeVisible();
});

test("every message header shows the author's realm badge", async () => {
  const message = channelMessage(b.page, first);
  const author = message.getByTestId('message-author');
  await expect(author).toContainText(a.daoHieu);
  await expect(author.getByTestId('realm-badge')).toHaveText('Nguyên Anh Trung Kỳ');
  await snap(b.page, 'chat-realtime-b');
});

test("B typing shows in A's header, and A sees that B has read the message", async () => {
  // B has the conversation open, so A's last message is read: its status turns to "read".
  await expect(channelMessage(a.page, first).getByTestId('message-status-read-by')).toBeVisible();

  const composer = channelComposer(b.page);
  await composer.click();
  await composer.pressSequentially('Đang soạn', { delay: 20 });
  const typing = a.page.getByTestId('typing-indicator-header');
  await expect(typing).toContainText(b.daoHieu);
  await expect(typing).toContainText('đang nhập');
  await composer.fill('');
});

test("A's reaction appears on B's screen", async () => {
  const message = channelMessage(a.page, first);
  await message.hover();
  await message.getByRole('button', { name: 'Mở bảng chọn biểu cảm' }).click();
  await a.page
    .getByRole('option', { name: 'Chọn biểu cảm: Thích' })
    .or(a.page.getByRole('button', { name: 'Chọn biểu cảm: Thích' }))
    .first()
    .click();

  const reactions = channelMessage(b.page, first).locator('.str-chat__message-reactions');
  await expect(reactions).toContainText('👍');
  await expect(reactions).toContainText('1');
});

test("A's reply in a thread appears for B", async () => {
  const message = channelMessage(a.page, first);
  await message.hover();
  await message.getByRole('button', { name: 'Mở chuỗi trả lời' }).click();
  await expect(a.page.getByRole('heading', { level: 3, name: 'Chuỗi trả lời' })).toBeVisible();
  await send(threadComposer(a.page), reply);
  await expect(threadMessage(a.page, reply)).toBeVisible();
  await a.page.getByRole('button', { name: 'Đóng chuỗi trả lời' }).click();

  // B sees the reply count under the message, and the reply inside the thread.
  const replies = channelMessage(b.page, first).getByRole('button', { name: /1 câu trả lời/ });
  await expect(replies).toBeVisible();
  await replies.click();
  await expect(threadMessage(b.page, reply)).toBeVisible();
  await snap(b.page, 'chat-thread-b');
  await b.page.getByRole('button', { name: 'Đóng chuỗi trả lời' }).click();
});

test("A's edit reaches B", async () => {
  await send(channelComposer(a.page), second);
  await expect(channelMessage(b.page, second)).toBeVisible();

  await messageAction(channelMessage(a.page, second), 'Sửa tin nhắn');
  const composer = channelComposer(a.page);
  await expect(composer).toHaveValue(second);
  await composer.fill(edited);
  await composer.press('Enter');

  await expect(channelMessage(b.page, edited)).toBeVisible();
  await expect(channelMessage(b.page, second)).toHaveCount(0);
});

test("A's delete reaches B", async () => {
  await send(channelComposer(a.page), third);
  await expect(channelMessage(b.page, third)).toBeVisible();

  await messageAction(channelMessage(a.page, third), 'Xóa tin nhắn');
  await a.page.getByRole('alertdialog').getByRole('button', { name: 'Xóa tin nhắn' }).click();

  await expect(channelMessage(b.page, third)).toHaveCount(0);
  await expect(
    b.page.locator('.str-chat__main-panel').getByText('Tin nhắn đã bị xóa'),
  ).toBeVisible();
});

test("A's pin reaches B: the message is marked and listed among the pinned messages", async () => {
  await messageAction(channelMessage(a.page, first), 'Ghim tin nhắn');
  await expect(channelMessage(a.page, first)).toContainText('Đạo hữu đã ghim');
  // The chat client's notification becomes one of the app's toasts, in Vietnamese.
  await expect(toasts(a.page).filter({ hasText: 'Đã ghim tin nhắn' })).toBeVisible();

  await expect(channelMessage(b.page, first)).toContainText(`${a.daoHieu} đã ghim`);
  await b.page.getByRole('button', { name: 'Tin nhắn đã ghim' }).click();
  const panel = b.page.getByRole('complementary', { name: 'Tin nhắn đã ghim' });
  await expect(panel).toContainText(first);
  await expect(panel.getByTestId('realm-badge')).toHaveText('Nguyên Anh Trung Kỳ');
  await snap(b.page, 'chat-pinned-b');
});

test("B's quote of A's message shows the quoted text to both, and jumps back to it", async () => {
  const answer = `Trích lời đạo hữu ${tag}`;
  // The pinned list from the previous step would cover the message.
  const pinned = b.page.getByRole('complementary', { name: 'Tin nhắn đã ghim' });
  await pinned.getByRole('button', { name: 'Đóng' }).click();
  await expect(pinned).toBeHidden();
  await messageAction(channelMessage(b.page, first), 'Trích dẫn tin nhắn');
  // The composer shows what is being quoted before sending.
  await expect(
    b.page.locator(
      '.str-chat__main-panel .str-chat__message-composer__quoted-message-preview-slot',
    ),
  ).toContainText(first);
  await send(channelComposer(b.page), answer);

  for (const page of [a.page, b.page]) {
    const quoting = channelMessage(page, answer);
    await expect(quoting).toBeVisible();
    await expect(quoting.locator('.str-chat__quoted-message-preview')).toContainText(first);
  }
  await channelMessage(a.page, answer).locator('.str-chat__quoted-message-preview').click();
  await expect(channelMessage(a.page, first).first()).toBeInViewport();
});

test("B blocks A and unblocks again, then reports one of A's messages", async () => {
  // The first message sits high in the list, so its menu opens clear of the composer.
  const message = channelMessage(b.page, first).first();
  await messageAction(message, 'Chặn đạo hữu');
  // The menu now offers the opposite, from the client's own list of blocked users.
  await messageAction(message, 'Bỏ chặn');
  await message.hover();
  await message.getByRole('button', { name: 'Mở menu thao tác với tin nhắn' }).click();
  await expect(b.page.getByRole('menuitem', { name: 'Chặn đạo hữu' })).toBeVisible();
  await b.page.getByRole('menuitem', { name: 'Báo cáo tin nhắn' }).click();
  // A report asks for a reason before it goes to the moderators.
  const dialog = b.page.getByRole('dialog', { name: 'Báo cáo tin nhắn' });
  await dialog.getByRole('radio', { name: 'Spam hoặc quảng cáo' }).check();
  await dialog.getByRole('button', { name: 'Gửi báo cáo' }).click();
  await expect(dialog).toBeHidden();
  await expect(toasts(b.page).filter({ hasText: 'Đã gửi báo cáo' })).toBeVisible();
});

test('none of this raised an error toast on either side', async () => {
  await expect(toasts(a.page).filter({ hasText: /Lỗi|thất bại|Không/ })).toHaveCount(0);
  await expect(toasts(b.page).filter({ hasText: /Lỗi|thất bại|Không/ })).toHaveCount(0);
});
