import { expect, test } from '@playwright/test';
import { closeChatUsers, newChatUser, type ChatUser } from './chat-support';
import { ADMIN, VIEWPORTS, signInViaApi } from './support';

// The campaign screen (/quan-tri/chien-dich): an admin picks who, previews the message for one cultivator, sends it
// and watches it finish; the cultivator finds it in their chat.

const SCREEN = { timeout: 15_000 };
const LIVE = { timeout: 30_000 };

// Three browsers (admin, member, outsider) on a machine shared with other runs.
test.describe.configure({ timeout: 240_000 });

let users: ChatUser[] = [];
test.afterEach(async () => {
  await closeChatUsers(...users);
  users = [];
});

test('an admin sends a campaign to a chosen cultivator, who receives it with their name filled in; another cultivator gets nothing', async ({
  browser,
  baseURL,
}) => {
  const member = await newChatUser(browser, baseURL, 'Nhận');
  const outsider = await newChatUser(browser, baseURL, 'Ngoài');
  users.push(member, outsider);
  // The outsider is connected throughout, so a campaign notification pushed to them would land in their bell.
  await outsider.page.goto('/');
  await expect(outsider.page.getByTestId('notification-bell')).toBeVisible(LIVE);
  const memberId = ((await (await member.context.request.get('/api/me')).json()) as { id: string })
    .id;

  const adminContext = await browser.newContext({
    baseURL,
    viewport: VIEWPORTS.desktop,
    locale: 'vi-VN',
    reducedMotion: 'reduce',
  });
  try {
    await signInViaApi(adminContext.request, baseURL as string, ADMIN);
    const page = await adminContext.newPage();
    await page.goto('/quan-tri/chien-dich');
    await expect(page.getByRole('heading', { name: 'Chiến dịch' })).toBeVisible(SCREEN);

    await page.getByLabel('Chọn từng đạo hữu').check();
    await page.getByLabel(/Mã đạo hữu/).fill(memberId);
    await expect(page.getByTestId('audience-count')).toHaveText(
      'Chiến dịch sẽ gửi đến 1 đạo hữu.',
      SCREEN,
    );

    await page.getByLabel('Nội dung tin nhắn').fill('Chào {{ receiver.name }}, bí cảnh đã mở!');
    await page.getByRole('button', { name: 'Xem trước' }).click();
    await expect(page.getByTestId('campaign-preview')).toContainText(
      `Chào ${member.daoHieu}, bí cảnh đã mở!`,
      SCREEN,
    );

    await page.getByRole('button', { name: 'Bắt đầu gửi' }).click();
    await expect(page.getByTestId('campaign-status')).toHaveText('Đã gửi xong', LIVE);
    await expect(page.getByTestId('campaign-sent')).toHaveText('1');
    await expect(page.getByRole('button', { name: 'Dừng chiến dịch' })).toHaveCount(0);
  } finally {
    await adminContext.close();
  }

  await member.page.goto('/chat');
  await expect(member.page.getByText(`Chào ${member.daoHieu}, bí cảnh đã mở!`).first()).toBeVisible(
    LIVE,
  );
  await expect(member.page.getByTestId('notification-count')).toBeVisible(LIVE);

  // Notifications are recorded one after another per app: once the member's is there, one for the outsider would
  // be stored too, so a reload shows all they were sent.
  await outsider.page.reload();
  await expect(outsider.page.getByTestId('notification-bell')).toBeVisible(LIVE);
  await outsider.page.getByTestId('notification-bell').click();
  await expect(outsider.page.getByText('Chưa có thông báo nào.')).toBeVisible(SCREEN);
  await outsider.page.keyboard.press('Escape');
  await outsider.page.goto('/chat');
  await expect(outsider.page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible(LIVE);
  // The list box shows before its channels arrive; the sect rows come from the same query, so once one is there a
  // conversation the campaign made for the outsider (the newest channel) would be listed too.
  await expect(
    outsider.page.getByRole('group', { name: 'Kênh tông môn' }).getByRole('option').first(),
  ).toBeVisible(LIVE);
  await expect(outsider.page.getByText('bí cảnh đã mở')).toHaveCount(0);
});

test('a cultivator who is not an admin is refused the campaign screen', async ({
  browser,
  baseURL,
}) => {
  const member = await newChatUser(browser, baseURL, 'Thường');
  users.push(member);
  await member.page.goto('/quan-tri/chien-dich');
  await expect(member.page.getByRole('heading', { name: 'Chiến dịch' })).toHaveCount(0, SCREEN);
  await expect(member.page.getByText(/không có quyền/i).first()).toBeVisible(SCREEN);
});
