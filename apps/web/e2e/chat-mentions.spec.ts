import { expect as baseExpect, test, type Page } from '@playwright/test';
import {
  channelComposer,
  channelListItem,
  channelMessage,
  closeChatUsers,
  newChatUser,
  type ChatUser,
} from './chat-support';
import { snap, type Cultivator } from './support';

// Two browsers, a chat server and a build share a few cores with other runs: the chat takes longer than the
// suite's default to connect, so this spec waits longer (every wait is still bounded).
const expect = baseExpect.configure({ timeout: 30_000 });

async function openChat(page: Page): Promise<void> {
  await page.goto('/chat');
  // The first load builds the chat bundle's caches and connects: the slowest step on a busy machine.
  await expect(page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible({
    timeout: 90_000,
  });
}

async function startDirectMessage(page: Page, other: Cultivator): Promise<void> {
  await page.getByRole('button', { name: 'Cuộc trò chuyện mới' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cuộc trò chuyện mới' });
  await dialog.getByLabel('Đạo hiệu').fill(other.daoHieu);
  await dialog.getByRole('checkbox', { name: new RegExp(other.daoHieu) }).click();
  await dialog.getByRole('button', { name: 'Nhắn tin' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/chat\/messaging\/[^/]+$/);
}

function mentionIn(page: Page, name: string) {
  return page
    .locator('.str-chat__main-panel .str-chat__message-mention')
    .filter({ hasText: `@${name}` });
}

test('a mention typed without accents is offered, sent, highlighted for both and opens the profile card', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(360_000);
  let a: ChatUser | undefined;
  let b: ChatUser | undefined;
  try {
    a = await newChatUser(browser, baseURL, 'Lâm Phong');
    b = await newChatUser(browser, baseURL, 'Bạch Vân');
    await openChat(b.page);
    await openChat(a.page);
    await startDirectMessage(a.page, b);

    // The DM header speaks of the other person, not of "2 thành viên".
    const header = a.page.locator('.dh-channel-header');
    await expect(header.getByTestId('presence-line')).toHaveText('Đang trực tuyến');
    await expect(header.getByTestId('channel-member-count')).toHaveCount(0);

    const composer = channelComposer(a.page);
    await composer.click();
    await composer.pressSequentially('Chào @bach');
    const suggestions = a.page.getByRole('listbox', { name: 'Gợi ý nhắc tên' });
    await expect(suggestions.getByRole('option', { name: new RegExp(b.daoHieu) })).toBeVisible();
    await expect(suggestions.getByRole('option')).toHaveCount(1);
    await snap(a.page, 'chat-mentions-list');
    await composer.press('Enter');
    await expect(suggestions).toBeHidden();
    await expect(composer).toHaveValue(`Chào @${b.daoHieu} `);
    await composer.pressSequentially('xin thỉnh giáo.');
    await composer.press('Enter');

    await expect(mentionIn(a.page, b.daoHieu)).toBeVisible();

    // B sees the "@" marker on the conversation's row, then the highlighted mention inside it.
    const row = channelListItem(b.page, a.daoHieu);
    await expect(row).toBeVisible();
    await expect(
      b.page
        .locator('.dh-channel-item--mentioned')
        .filter({ hasText: a.daoHieu })
        .getByTestId('mention-marker'),
    ).toBeVisible();
    await row.click();
    await expect(channelMessage(b.page, 'xin thỉnh giáo')).toBeVisible();
    await mentionIn(b.page, b.daoHieu).click();
    const card = b.page.getByTestId('profile-card');
    await expect(card.getByRole('heading', { name: new RegExp(b.daoHieu) })).toBeVisible();
    // B's own card: no "Nhắn tin", no "Chặn".
    await expect(card.getByRole('button', { name: 'Chặn' })).toHaveCount(0);
    await b.page.keyboard.press('Escape');
    await expect(card).toBeHidden();

    // A's card, from A's mention target on A's side: "Nhắn tin" and "Chặn" are there.
    await mentionIn(a.page, b.daoHieu).click();
    const cardOfB = a.page.getByTestId('profile-card');
    await expect(cardOfB.getByRole('heading', { name: b.daoHieu })).toBeVisible();
    await expect(cardOfB.getByRole('button', { name: 'Nhắn tin' })).toBeVisible();
    await expect(cardOfB.getByRole('button', { name: 'Chặn' })).toBeVisible();
    await expect(cardOfB.getByTestId('presence-line')).toHaveText('Đang trực tuyến');
    await snap(a.page, 'chat-mentions-profile-card');
    await a.page.keyboard.press('Escape');
    await expect(cardOfB).toBeHidden();

    // The members panel lists both, each with a presence dot.
    await a.page.getByRole('button', { name: 'Thành viên' }).click();
    const panel = a.page.getByRole('complementary', { name: 'Thành viên' });
    const rows = panel.getByTestId('member-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: a.daoHieu }).getByTestId('presence-dot')).toHaveAttribute(
      'data-online',
      'true',
    );
    await expect(rows.filter({ hasText: b.daoHieu }).getByTestId('presence-dot')).toHaveAttribute(
      'data-online',
      'true',
    );
    await snap(a.page, 'chat-mentions-members-panel');
    await rows.filter({ hasText: b.daoHieu }).click();
    await expect(
      a.page.getByTestId('profile-card').getByRole('button', { name: 'Nhắn tin' }),
    ).toBeVisible();
  } finally {
    await closeChatUsers(a, b);
  }
});
