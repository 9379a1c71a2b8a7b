import { expect, request, test, type Browser, type Page } from '@playwright/test';
import {
  channelComposer,
  channelMessage,
  closeChatUsers,
  messageAction,
  newChatUser,
  ownChatClient,
  send,
  startDirectMessage,
  toasts,
  userIdOf,
  type ChatUser,
} from './chat-support';
import { ADMIN, VIEWPORTS, signInViaApi } from './support';

// The moderation screen (/quan-tri/kiem-duyet) and what a moderator's decisions do in the members' chat.
// Most steps need the chat server's review queue, bans and blocklists: see each test's note.

const SECT = '/chat/sect/quang-truong';
/** The shared machine can be slow to connect the chat: wait longer than the default, still bounded. */
const CHAT_READY = { timeout: 30_000 };
const LIVE = { timeout: 20_000 };
/** A product request and its toast, or a screen's first render, on a loaded machine. */
const SCREEN = { timeout: 15_000 };

// Each test signs up two or three cultivators and connects their chats: on a loaded machine that alone can take
// a minute.
test.describe.configure({ timeout: 180_000 });

let users: ChatUser[] = [];
test.afterEach(async () => {
  await closeChatUsers(...users);
  users = [];
});

async function chatUser(browser: Browser, baseURL: string | undefined, prefix: string) {
  const user = await newChatUser(browser, baseURL, prefix);
  users.push(user);
  // A failure here is hard to read from a screenshot: the page's own errors go to the test's output.
  user.page.on('console', (message) => {
    if (message.type() === 'error') console.info(`[${prefix}] ${message.text()}`);
  });
  return user;
}

/** Makes `user` a moderator as the demo admin would, through the product API. */
async function makeModerator(baseURL: string | undefined, user: ChatUser): Promise<void> {
  const base = baseURL ?? '';
  const admin = await request.newContext({ baseURL: base });
  try {
    await signInViaApi(admin, base, ADMIN);
    const id = await userIdOf(user);
    const response = await admin.patch(`/api/admin/users/${id}`, {
      data: { role: 'moderator' },
      headers: { Origin: new URL(base).origin },
    });
    expect(response.status(), await response.text()).toBe(200);
  } finally {
    await admin.dispose();
  }
}

async function openSect(page: Page): Promise<void> {
  await page.goto(SECT);
  await expect(channelComposer(page)).toBeVisible(CHAT_READY);
}

async function openModeration(page: Page, tab?: string): Promise<void> {
  await page.goto('/quan-tri/kiem-duyet');
  await expect(page.getByRole('heading', { name: 'Kiểm duyệt' })).toBeVisible(SCREEN);
  if (tab) await page.getByRole('tab', { name: tab }).click();
}

/**
 * `openDirectMessage` from chat-support with waits long enough for a loaded machine: A starts the conversation with B,
 * and B opens it too. Returns the conversation's URL.
 */
async function openConversation(a: ChatUser, b: ChatUser): Promise<string> {
  await a.page.goto('/chat');
  await expect(a.page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible(CHAT_READY);
  const path = await startDirectMessage(a.page, b);
  await expect(channelComposer(a.page)).toBeVisible(CHAT_READY);
  await b.page.goto(path);
  await expect(channelComposer(b.page)).toBeVisible(CHAT_READY);
  return path;
}

function unique(label: string): string {
  return `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

test('an admin makes a member a moderator from the users table, and only then may they open the moderation screen', async ({
  browser,
  baseURL,
}) => {
  // Runs before the chat server's moderation branches are merged: it needs only the product.
  const member = await chatUser(browser, baseURL, 'Sắp kiểm duyệt');
  const admin = await chatUser(browser, baseURL, 'Phụ tá');
  await signInViaApi(admin.context.request, baseURL ?? '', ADMIN);

  await member.page.goto('/quan-tri/kiem-duyet');
  await expect(member.page.getByRole('heading', { name: 'Không có quyền truy cập' })).toBeVisible(
    SCREEN,
  );

  await admin.page.goto('/quan-tri/nguoi-dung');
  await admin.page.getByRole('searchbox', { name: 'Tìm người dùng' }).fill(member.email);
  await admin.page
    .getByRole('combobox', { name: `Vai trò của ${member.daoHieu}` })
    .selectOption({ label: 'Người kiểm duyệt' });
  await admin.page.getByRole('button', { name: `Lưu thay đổi cho ${member.daoHieu}` }).click();
  await expect(toasts(admin.page).filter({ hasText: member.daoHieu })).toBeVisible(SCREEN);

  await member.page.reload();
  await expect(member.page.getByRole('heading', { name: 'Kiểm duyệt' })).toBeVisible(SCREEN);
  await expect(member.page.getByRole('link', { name: 'Kiểm duyệt' })).toBeVisible();
  await expect(member.page.getByRole('link', { name: 'Người dùng' })).toHaveCount(0);
});

test('a reported message reaches the queue, the moderator bans its author for an hour, and the ban shows live in the author’s chat until lifted', async ({
  browser,
  baseURL,
}) => {
  // Needs the merged chat server: flags into the review queue, submit_action ban, user.banned events, bans list.
  const author = await chatUser(browser, baseURL, 'Hắc Phong');
  const reporter = await chatUser(browser, baseURL, 'Bạch Vân');
  const moderator = await chatUser(browser, baseURL, 'Kiểm duyệt');
  await makeModerator(baseURL, moderator);
  const text = unique('Lời lẽ khiếm nhã');

  await openSect(author.page);
  await send(channelComposer(author.page), text);
  await openSect(reporter.page);
  const message = channelMessage(reporter.page, text);
  await expect(message).toBeVisible(LIVE);

  await messageAction(message, 'Báo cáo');
  const dialog = reporter.page.getByRole('dialog', { name: 'Báo cáo tin nhắn' });
  await dialog.getByRole('button', { name: 'Gửi báo cáo' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Hãy chọn lý do báo cáo.');
  await dialog.getByRole('radio', { name: 'Lời lẽ xúc phạm, quấy rối' }).check();
  await dialog.getByRole('button', { name: 'Gửi báo cáo' }).click();
  await expect(dialog).toBeHidden(SCREEN);
  await expect(toasts(reporter.page).filter({ hasText: 'Đã gửi báo cáo' })).toBeVisible(SCREEN);

  await openModeration(moderator.page);
  const item = moderator.page
    .getByRole('article', { name: `Tin nhắn của ${author.daoHieu}` })
    .filter({ hasText: text });
  await expect(item).toBeVisible(LIVE);
  await expect(item.getByRole('region', { name: 'Lý do báo cáo' })).toContainText(
    `${reporter.daoHieu}: Lời lẽ xúc phạm, quấy rối`,
  );
  await item.getByLabel('Hành động').selectOption({ label: 'Cấm' });
  await item.getByLabel('Thời hạn').selectOption({ label: '1 giờ' });
  await item.getByRole('textbox', { name: 'Lý do' }).fill('Xúc phạm đạo hữu');
  await item.getByRole('button', { name: 'Cấm' }).click();
  await expect(toasts(moderator.page).filter({ hasText: 'Đã thực hiện: Cấm' })).toBeVisible(SCREEN);

  // The author did not reload: the ban event alone replaces the composer with the notice.
  const notice = author.page.getByTestId('ban-notice');
  await expect(notice).toHaveText(
    /^Đạo hữu đã bị cấm chat đến \d{2}:\d{2} \d{2}\/\d{2}\/\d{4}\. Lý do: Xúc phạm đạo hữu$/,
    LIVE,
  );
  await expect(channelComposer(author.page)).toHaveCount(0);

  await openModeration(moderator.page, 'Danh sách cấm');
  await moderator.page.getByRole('button', { name: `Bỏ cấm ${author.daoHieu}` }).click();
  await expect(toasts(moderator.page).filter({ hasText: 'Đã bỏ cấm' })).toBeVisible(SCREEN);
  await expect(notice).toHaveCount(0, LIVE);
  await expect(channelComposer(author.page)).toBeVisible(LIVE);
});

test('a shadow-banned member’s message is shown to them and to nobody else', async ({
  browser,
  baseURL,
}) => {
  // Needs the merged chat server: shadow bans and the one visibility rule for shadowed messages.
  const hidden = await chatUser(browser, baseURL, 'Ẩn Danh');
  const viewer = await chatUser(browser, baseURL, 'Người Xem');
  const moderator = await chatUser(browser, baseURL, 'Kiểm duyệt');
  await makeModerator(baseURL, moderator);

  await openModeration(moderator.page, 'Danh sách cấm');
  const form = moderator.page.getByRole('form', { name: 'Cấm người dùng' });
  await form.getByLabel('Mã người dùng').fill(await userIdOf(hidden));
  await form.getByLabel('Thời hạn').selectOption({ label: '1 ngày' });
  await form.getByRole('textbox', { name: 'Lý do' }).fill('Spam');
  await form.getByRole('checkbox', { name: /Cấm ẩn/ }).check();
  await form.getByRole('button', { name: 'Cấm' }).click();
  await expect(toasts(moderator.page).filter({ hasText: 'Đã cấm ẩn' })).toBeVisible(SCREEN);

  const shadowed = unique('Mua linh thạch giá rẻ');
  await openSect(hidden.page);
  await expect(hidden.page.getByTestId('ban-notice')).toHaveCount(0);
  await send(channelComposer(hidden.page), shadowed);
  await expect(channelMessage(hidden.page, shadowed)).toBeVisible(LIVE);

  // The viewer's own later message proves the list is up to date before the shadowed one is looked for.
  const later = unique('Chào chư vị');
  await openSect(viewer.page);
  await send(channelComposer(viewer.page), later);
  await expect(channelMessage(viewer.page, later)).toBeVisible(LIVE);
  await expect(channelMessage(viewer.page, shadowed)).toHaveCount(0);
  await viewer.page.reload();
  await expect(channelMessage(viewer.page, later)).toBeVisible(CHAT_READY);
  await expect(channelMessage(viewer.page, shadowed)).toHaveCount(0);
});

test('a blocklisted word is refused when the channel type blocks it and reaches the queue when it flags it', async ({
  browser,
  baseURL,
}) => {
  // Needs the merged chat server: blocklists, channel-type blocklist_behavior, and the review queue.
  const writer = await chatUser(browser, baseURL, 'Người Viết');
  const reader = await chatUser(browser, baseURL, 'Người Đọc');
  const moderator = await chatUser(browser, baseURL, 'Kiểm duyệt');
  await makeModerator(baseURL, moderator);
  const word = `tucam${Date.now().toString(36)}`;
  const listName = `e2e-${word}`;

  await openModeration(moderator.page, 'Từ cấm');
  const editor = moderator.page.getByRole('form', { name: 'Danh sách từ cấm mới' });
  await editor.getByLabel('Tên danh sách mới').fill(listName);
  await editor.getByLabel('Từ cấm (mỗi dòng một từ)').fill(`${word}\n${word.toUpperCase()}\n`);
  await editor.getByRole('button', { name: /^Lưu/ }).click();
  await expect(toasts(moderator.page).filter({ hasText: `(1 từ)` })).toBeVisible(SCREEN);

  async function setMessaging(
    behavior: 'Chặn, không cho gửi' | 'Cho gửi, đưa vào hàng chờ kiểm duyệt',
  ) {
    const setting = moderator.page.locator('form[data-channel-type="messaging"]');
    await setting.getByLabel('Danh sách từ cấm').selectOption(listName);
    await setting.getByLabel('Khi tin nhắn chứa từ cấm').selectOption({ label: behavior });
    await setting.getByRole('button', { name: /^Lưu cài đặt/ }).click();
    await expect(
      toasts(moderator.page).filter({ hasText: 'Đã lưu cài đặt từ cấm' }).last(),
    ).toBeVisible(SCREEN);
  }

  await setMessaging('Chặn, không cho gửi');
  await openConversation(writer, reader);
  const blocked = `Đồ ${word} kia`;
  await send(channelComposer(writer.page), blocked);
  // The chat server refuses the send (code 4, "Message was blocked by moderation policies"); stream-chat-react keeps
  // the writer's copy marked as failed with its red badge, the app says why under it, and the reader never receives
  // it. Sending the same words again cannot work, so no resend is offered.
  const refused = channelMessage(writer.page, blocked);
  await expect(refused).toHaveClass(/str-chat__message--failed/, LIVE);
  await expect(refused.locator('.str-chat__message-error-indicator')).toBeVisible();
  await expect(refused.getByTestId('send-failure')).toHaveText(
    'Chưa gửi được: tin nhắn chứa từ bị cấm',
  );
  await expect(refused.getByRole('button', { name: 'Gửi lại' })).toHaveCount(0);
  const after = unique('Tin nhắn bình thường');
  await send(channelComposer(writer.page), after);
  await expect(channelMessage(reader.page, after)).toBeVisible(LIVE);
  await expect(channelMessage(reader.page, blocked)).toHaveCount(0);

  await openModeration(moderator.page, 'Từ cấm');
  await setMessaging('Cho gửi, đưa vào hàng chờ kiểm duyệt');
  const flagged = `Lại ${word} nữa`;
  await send(channelComposer(writer.page), flagged);
  await expect(channelMessage(reader.page, flagged)).toBeVisible(LIVE);
  await openModeration(moderator.page);
  await expect(moderator.page.getByRole('article').filter({ hasText: flagged })).toBeVisible(LIVE);
});

test('the moderation screen fits a 375 px phone, with cards instead of tables', async ({
  browser,
  baseURL,
}) => {
  // The tabs and the slow-mode cards need only the product; the queue's content needs the merged chat server.
  const moderator = await chatUser(browser, baseURL, 'Kiểm duyệt');
  await makeModerator(baseURL, moderator);
  await moderator.page.setViewportSize(VIEWPORTS.mobile);
  await openModeration(moderator.page, 'Chế độ chậm');
  await expect(
    moderator.page.getByRole('form', { name: 'Chế độ chậm của Quảng Trường' }),
  ).toBeVisible(LIVE);
  expect(await moderator.page.locator('table').count()).toBe(0);
  const overflow = await moderator.page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

test('slow mode turned on by a moderator shows the composer’s countdown to a member after they send', async ({
  browser,
  baseURL,
}) => {
  // Runs before the merge: cooldown is already part of the chat server's channels.
  const member = await chatUser(browser, baseURL, 'Nóng Vội');
  const moderator = await chatUser(browser, baseURL, 'Kiểm duyệt');
  await makeModerator(baseURL, moderator);

  await openModeration(moderator.page, 'Chế độ chậm');
  const row = moderator.page.getByRole('form', { name: 'Chế độ chậm của Giao Dịch' });
  await row.getByRole('checkbox', { name: 'Bật chế độ chậm' }).check();
  await row.getByLabel('Số giây giữa hai tin nhắn').fill('30');
  await row.getByRole('button', { name: 'Lưu chế độ chậm của Giao Dịch' }).click();
  await expect(
    toasts(moderator.page).filter({ hasText: 'Đã bật chế độ chậm 30 giây' }),
  ).toBeVisible(SCREEN);

  try {
    await member.page.goto('/chat/sect/giao-dich');
    await expect(channelComposer(member.page)).toBeVisible(CHAT_READY);
    await send(channelComposer(member.page), unique('Bán đan dược'));
    await expect(
      member.page.getByRole('timer', { name: /^Chế độ chậm: còn \d+ giây$/ }),
    ).toBeVisible(LIVE);
    await expect(channelComposer(member.page)).toHaveAttribute(
      'placeholder',
      /^Chế độ chậm, vui lòng đợi \d+ giây…$/,
    );
  } finally {
    // Other specs write in this sect channel: turn slow mode off again whatever happened.
    const again = moderator.page.getByRole('form', { name: 'Chế độ chậm của Giao Dịch' });
    await again.getByRole('checkbox', { name: 'Bật chế độ chậm' }).uncheck();
    await again.getByRole('button', { name: 'Lưu chế độ chậm của Giao Dịch' }).click();
    await expect(toasts(moderator.page).filter({ hasText: 'Đã tắt chế độ chậm' })).toBeVisible(
      SCREEN,
    );
  }
});

test('a member banned app-wide while their open tab missed the ban is told on the refused message until when', async ({
  browser,
  baseURL,
}) => {
  const member = await chatUser(browser, baseURL, 'Lỡ Tin');
  const moderator = await chatUser(browser, baseURL, 'Kiểm duyệt');
  await makeModerator(baseURL, moderator);
  // The tab loses the ban on the way, as one asleep or reconnecting would: its composer stays, and only the
  // refusal of its next send can tell the member.
  await member.page.routeWebSocket(/\/chat\/connect/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((frame) => server.send(frame));
    server.onMessage((frame) => {
      const event = typeof frame === 'string' ? (JSON.parse(frame) as Record<string, unknown>) : {};
      const me = event.me as { banned?: boolean } | undefined;
      if (event.type !== 'user.banned' && me?.banned !== true) socket.send(frame);
    });
  });
  await openSect(member.page);

  const banned = await moderator.context.request.post('/api/admin/moderation/bans', {
    data: { userId: await userIdOf(member), durationMinutes: 60, reason: 'Spam' },
    headers: { Origin: new URL(baseURL ?? '').origin },
  });
  expect(banned.status(), await banned.text()).toBe(200);

  const text = unique('Ta vẫn muốn nói');
  await send(channelComposer(member.page), text);
  const refused = channelMessage(member.page, text);
  await expect(refused).toHaveClass(/str-chat__message--failed/, LIVE);
  await expect(refused.getByTestId('send-failure')).toHaveText(
    /^Chưa gửi được: đạo hữu đang bị cấm chat đến \d{2}:\d{2} \d{2}\/\d{2}\/\d{4}$/,
    LIVE,
  );
  await expect(refused.getByRole('button', { name: 'Gửi lại' })).toHaveCount(0);
});

test('the review queue shows ten reports and "Xem thêm" loads the rest from the keyboard on a 375 px phone', async ({
  browser,
  baseURL,
}) => {
  const author = await chatUser(browser, baseURL, 'Rao Vặt');
  const reporter = await chatUser(browser, baseURL, 'Bạch Vân');
  const moderator = await chatUser(browser, baseURL, 'Kiểm duyệt');
  await makeModerator(baseURL, moderator);
  // Eleven reports made through the members' own chat clients: the screen's first page holds ten.
  const label = unique('Bán linh thạch');
  const authorClient = await ownChatClient(author);
  const reporterClient = await ownChatClient(reporter);
  try {
    const channel = authorClient.channel('sect', 'quang-truong');
    await channel.watch();
    for (let index = 1; index <= 11; index += 1) {
      const { message } = await channel.sendMessage({ text: `${label} số ${index}` });
      await reporterClient.flagMessage(message.id, { reason: 'Spam' });
    }
  } finally {
    await Promise.all([authorClient.disconnectUser(), reporterClient.disconnectUser()]);
  }

  await moderator.page.setViewportSize(VIEWPORTS.mobile);
  await openModeration(moderator.page);
  const ours = moderator.page.getByRole('article').filter({ hasText: label });
  await expect(ours).toHaveCount(10, LIVE);
  const more = moderator.page.getByRole('button', { name: 'Xem thêm' });
  await more.focus();
  await moderator.page.keyboard.press('Enter');
  await expect(ours).toHaveCount(11, LIVE);
  // The first card of the new page takes the focus, so reading goes on from there.
  await expect(moderator.page.getByRole('article').nth(10)).toBeFocused();
  const overflow = await moderator.page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});
