import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  channelComposer,
  channelListItem,
  channelMessage,
  chatApi,
  closeChatUsers,
  newChatUser,
  openChat,
  send,
  setTuViAsAdmin,
  toasts,
  userIdOf,
  type ChatUser,
} from './chat-support';

// The details a cultivator reaches for first: tu vi printed the vi-VN way, /chat reopening where they left off, a
// draft marked in the channel list, reminders that read naturally, and a list of whom they blocked.
// A page load that downloads and starts the chat can take many seconds on a busy machine: its waits are longer.
test.describe.configure({ mode: 'serial', timeout: 120_000 });
const LOAD = { timeout: 30_000 };

let a: ChatUser;
let b: ChatUser;
let dmPath: string;
let dmId: string;
const tag = Date.now().toString(36);

interface ChatConfig {
  apiKey: string;
  baseURL: string | null;
  publicChannels: { type: string; id: string; name: string }[];
}

async function chatConfig(api: APIRequestContext): Promise<ChatConfig> {
  return (await (await api.get('/api/chat/config')).json()) as ChatConfig;
}

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  a = await newChatUser(browser, baseURL, 'Chi Tiết');
  b = await newChatUser(browser, baseURL, 'Bạn Chi Tiết');
  // The 1:1 conversation is made through the chat API as A's client would; the UI for it has its own spec.
  dmId = `chi-tiet-${tag}`;
  const members = [await userIdOf(a), await userIdOf(b)];
  await chatApi(a.context.request, `/channels/messaging/${dmId}/query`, { data: { members } });
  await chatApi(a.context.request, `/channels/messaging/${dmId}/message`, {
    message: { text: `Chào ${b.daoHieu}` },
  });
  dmPath = `/chat/messaging/${dmId}`;
});

test.afterAll(async () => closeChatUsers(a, b));

test('tu vi is printed with vi-VN grouping on the home and profile screens', async ({
  baseURL,
}) => {
  await setTuViAsAdmin(baseURL, a.email, 4_001);
  await a.page.goto('/');
  await expect(a.page.locator('[data-slot="tu-vi-value"]')).toHaveText('4.001', LOAD);
  await a.page.goto('/ho-so');
  await expect(a.page.getByText('4.001', { exact: true })).toBeVisible(LOAD);
});

test('/chat reopens the last channel after going elsewhere in the app and after a fresh load', async () => {
  await openChat(a.page, dmPath, LOAD);
  await expect(channelComposer(a.page)).toBeVisible(LOAD);
  await a.page.getByRole('link', { name: 'Nhắc nhở' }).click();
  await expect(a.page).toHaveURL('/nhac-nho', LOAD);
  await a.page.getByRole('link', { name: 'Trò chuyện' }).first().click();
  await expect(a.page).toHaveURL(dmPath, LOAD);
  await expect(channelComposer(a.page)).toBeVisible(LOAD);

  await a.page.goto('/chat');
  await expect(a.page).toHaveURL(dmPath, LOAD);
  await a.page.reload();
  await expect(channelComposer(a.page)).toBeVisible(LOAD);
  await expect(a.page).toHaveURL(dmPath);
});

test('/chat falls back to the first sect channel when the last channel is gone', async () => {
  const [sect] = (await chatConfig(a.context.request)).publicChannels;
  if (!sect) throw new Error('The e2e server seeds the sect channels.');
  const key = await a.page.evaluate(() =>
    Object.keys(window.localStorage).find((name) => name.startsWith('dh:kenh-gan-nhat:')),
  );
  expect(key).toBeDefined();
  await a.page.evaluate(([name, cid]) => window.localStorage.setItem(name, cid), [
    key as string,
    `messaging:khong-con-${tag}`,
  ] as const);
  await a.page.goto('/chat');
  await expect(a.page).toHaveURL(`/chat/${sect.type}/${encodeURIComponent(sect.id)}`, LOAD);
  // The gone channel is forgotten; the sect channel now opened is the one kept.
  await expect
    .poll(() => a.page.evaluate((name) => window.localStorage.getItem(name), key as string))
    .toBe(`${sect.type}:${sect.id}`);
});

test('a channel with a saved draft is marked in the list, and the mark goes once it is sent', async () => {
  const draft = `Nháp dở dang ${tag}`;
  await openChat(a.page, dmPath, LOAD);
  await expect(channelComposer(a.page)).toBeVisible(LOAD);
  const saved = a.page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      /\/draft$/.test(new URL(response.url()).pathname) &&
      response.ok(),
  );
  await channelComposer(a.page).fill(draft);
  await saved;
  const dmRow = channelListItem(a.page, b.daoHieu);
  // The open channel's composer shows the draft; its row does not repeat it.
  await expect(dmRow.getByTestId('draft-marker')).toHaveCount(0);

  await a.page
    .getByTestId('channel-list-item-button')
    .filter({ hasNotText: b.daoHieu })
    .first()
    .click();
  await expect(a.page).not.toHaveURL(dmPath);
  await expect(dmRow.getByTestId('draft-marker')).toHaveText(`Bản nháp: ${draft}`);

  await dmRow.click();
  await expect(a.page).toHaveURL(dmPath);
  await expect(channelComposer(a.page)).toHaveValue(draft);
  await send(channelComposer(a.page), draft);
  await expect(channelMessage(a.page, draft)).toBeVisible();
  await a.page
    .getByTestId('channel-list-item-button')
    .filter({ hasNotText: b.daoHieu })
    .first()
    .click();
  await expect(a.page).not.toHaveURL(dmPath);
  await expect(dmRow).toContainText(draft);
  await expect(dmRow.getByTestId('draft-marker')).toHaveCount(0);
});

test('/nhac-nho says when each reminder is due and names its channel', async () => {
  const api = a.context.request;
  const soonId = `sap-${tag}`;
  const lateId = `tre-${tag}`;
  const cid = `/channels/messaging/${encodeURIComponent(dmId)}`;
  await chatApi(api, `${cid}/message`, { message: { id: soonId, text: `Sắp đến ${tag}` } });
  await chatApi(api, `${cid}/message`, { message: { id: lateId, text: `Đã trễ ${tag}` } });
  // Half a minute of slack either side keeps the rounded wording the same however long the page takes.
  await chatApi(api, `/messages/${soonId}/reminders`, {
    remind_at: new Date(Date.now() + 2 * 60_000 + 20_000).toISOString(),
  });
  await chatApi(api, `/messages/${lateId}/reminders`, {
    remind_at: new Date(Date.now() - 7 * 60_000 - 20_000).toISOString(),
  });

  await a.page.goto('/nhac-nho');
  await expect(a.page.getByRole('region', { name: /Sắp tới/ })).toBeVisible(LOAD);
  const upcoming = a.page
    .getByRole('region', { name: /Sắp tới/ })
    .getByTestId('reminder-item')
    .filter({ hasText: `Sắp đến ${tag}` });
  const overdue = a.page
    .getByRole('region', { name: /Quá hạn/ })
    .getByTestId('reminder-item')
    .filter({ hasText: `Đã trễ ${tag}` });
  await expect(upcoming.getByTestId('reminder-due')).toContainText('Đến hạn sau 2 phút', LOAD);
  await expect(overdue.getByTestId('reminder-due')).toContainText('Đã quá hạn 7 phút');
  await expect(upcoming.getByTestId('reminder-channel')).toContainText(b.daoHieu);
  await expect(upcoming).not.toContainText('Cuộc trò chuyện');
  await expect(a.page.getByTestId('reminder-item').filter({ hasText: /tới|trong/ })).toHaveCount(0);
});

test('the message menu offers reminders worded "Sau 1 giờ", and a message’s reminder line reads the same way', async () => {
  await openChat(a.page, dmPath, LOAD);
  // A message without a reminder: its menu offers "Nhắc tôi" and the delays.
  const greeting = channelMessage(a.page, `Chào ${b.daoHieu}`);
  await expect(greeting).toBeVisible(LOAD);
  await greeting.hover();
  await greeting.getByRole('button', { name: 'Mở menu thao tác với tin nhắn' }).click();
  await a.page.getByRole('menuitem').filter({ hasText: 'Nhắc tôi' }).click();
  const submenu = a.page.getByRole('menu', { name: 'Menu con' });
  await expect(submenu.getByRole('menuitem', { name: 'Sau 1 giờ', exact: true })).toBeVisible();
  await expect(submenu.getByRole('menuitem', { name: /tới$/ })).toHaveCount(0);
  await a.page.keyboard.press('Escape');

  const soon = channelMessage(a.page, `Sắp đến ${tag}`);
  const late = channelMessage(a.page, `Đã trễ ${tag}`);
  await expect(soon.getByTestId('message-reminder')).toContainText('Đến hạn sau');
  await expect(late.getByTestId('message-reminder')).toContainText('Đã quá hạn');
  await expect(late.getByTestId('message-reminder')).not.toContainText('trước');
});

test('the profile lists blocked cultivators and "Bỏ chặn" unblocks them', async () => {
  await chatApi(a.context.request, '/users/block', { blocked_user_id: await userIdOf(b) });
  // The conversation with someone blocked leaves the list instead of lingering as an empty row.
  await openChat(a.page, '/chat', LOAD);
  await expect(channelListItem(a.page, 'Chưa có gì')).toHaveCount(0);
  await expect(channelListItem(a.page, b.daoHieu)).toHaveCount(0);

  await a.page.goto('/ho-so');
  const section = a.page.getByRole('region', { name: 'Đã chặn' });
  const row = section.getByTestId('blocked-user').filter({ hasText: b.daoHieu });
  await expect(row).toBeVisible(LOAD);
  await row.getByRole('button', { name: `Bỏ chặn ${b.daoHieu}` }).click();
  await expect(toasts(a.page).filter({ hasText: `Đã bỏ chặn ${b.daoHieu}` })).toBeVisible();
  await expect(section).toContainText('Đạo hữu chưa chặn ai.');

  await openChat(a.page, '/chat', LOAD);
  await expect(channelListItem(a.page, b.daoHieu)).toBeVisible(LOAD);
});
