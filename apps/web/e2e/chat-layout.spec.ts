import { expect, test, type Locator, type Page } from '@playwright/test';
import type { StreamChat } from 'stream-chat';
import {
  channelComposer,
  channelListItem,
  channelMessage,
  closeChatUsers,
  newChatUser,
  openChat,
  ownChatClient,
  send,
  threadMessage,
  userIdOf,
  type ChatUser,
} from './chat-support';
import { VIEWPORTS, desktopSidebar, snap } from './support';

// Up to three cultivators sign up and a group is filled with messages before the screens are checked: far more than
// one test's default budget on a busy machine.
test.describe.configure({ timeout: 180_000 });

const SLOW = { timeout: 45_000 };
const MESSAGES = 40;

/** `Tin nhắn số N` for message N of the filled group; the tag keeps this run's texts apart from any other. */
function numbered(tag: string, n: number): string {
  return `Tin nhắn số ${n} · ${tag}`;
}

interface Group {
  path: string;
  name: string;
  tag: string;
  /** Ids of the numbered messages, oldest first. */
  ids: string[];
}

/**
 * A creates a named group with the others and fills it (as A, through A's own chat client): MESSAGES numbered
 * messages, the last one with a reply in its thread. More messages than the channel's first page, so the oldest are
 * not loaded when the channel opens.
 */
async function filledGroup(owner: ChatUser, others: ChatUser[], prefix: string): Promise<Group> {
  const tag = `${prefix}-${Date.now().toString(36)}`;
  const name = `Luận kiếm ${tag}`;
  const members = [await userIdOf(owner), ...(await Promise.all(others.map(userIdOf)))];
  const client = await ownChatClient(owner);
  try {
    const id = `nhom-${tag}`;
    const channel = client.channel('messaging', id, { name, members } as never);
    await channel.create();
    const ids: string[] = [];
    for (let n = 0; n < MESSAGES; n += 1) {
      ids.push((await channel.sendMessage({ text: numbered(tag, n) })).message.id);
    }
    await channel.sendMessage({ text: `Trả lời trong chuỗi · ${tag}`, parent_id: ids.at(-1) });
    return { path: `/chat/messaging/${id}`, name, tag, ids };
  } finally {
    await client.disconnectUser();
  }
}

/** Whether the element lies wholly inside the page's viewport. */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  return (
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= viewport.width + 0.5 &&
    box.y + box.height <= viewport.height + 0.5
  );
}

/** The thread the current history entry records as open (components/thread-history.tsx), if any. */
function threadEntry(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const state = window.history.state as { usr?: { dhThread?: string } | null } | null;
    return state?.usr?.dhThread ?? null;
  });
}

function channelHeader(page: Page): Locator {
  return page.locator('.str-chat__main-panel .dh-channel-header');
}

function threadPanel(page: Page): Locator {
  return page.locator('.str-chat__thread-container');
}

async function openLastThread(page: Page, group: Group): Promise<void> {
  const parent = channelMessage(page, numbered(group.tag, MESSAGES - 1));
  await parent.getByRole('button', { name: '1 câu trả lời' }).click();
  await expect(threadMessage(page, `Trả lời trong chuỗi · ${group.tag}`)).toBeVisible(SLOW);
}

test.describe('on a wide screen', () => {
  let a: ChatUser | undefined;
  let b: ChatUser | undefined;
  let c: ChatUser | undefined;
  let group: Group;

  test.beforeEach(async ({ browser, baseURL }) => {
    a = await newChatUser(browser, baseURL, 'Thanh Vân');
    b = await newChatUser(browser, baseURL, 'Lạc Hà');
    c = await newChatUser(browser, baseURL, 'Bạch Vân');
    group = await filledGroup(a, [b, c], 'rong');
  });

  test.afterEach(async () => {
    await closeChatUsers(a, b, c);
  });

  test('at 1280 with the sidebar open, a thread opens beside the conversation and the channel list stays in view', async () => {
    const page = a!.page;
    await openChat(page, group.path, SLOW);
    await expect(desktopSidebar(page)).toBeVisible();
    await openLastThread(page, group);

    const list = page.getByRole('listbox', { name: 'Danh sách kênh' });
    const conversation = page.locator('.str-chat__main-panel');
    await expect(list).toBeVisible();
    await expect(channelMessage(page, numbered(group.tag, MESSAGES - 1))).toBeVisible();
    await expect(channelComposer(page)).toBeVisible();
    const main = await conversation.boundingBox();
    const thread = await threadPanel(page).boundingBox();
    if (!main || !thread) throw new Error('The conversation or the thread is not rendered.');
    // Side by side: the thread starts where the conversation ends, and the conversation keeps a readable width.
    expect(thread.x).toBeGreaterThanOrEqual(main.x + main.width - 1);
    expect(main.width).toBeGreaterThan(300);
    await snap(page, 'chat-thread-beside');

    // The members panel takes the thread's place beside the conversation.
    await page.getByRole('button', { name: 'Thành viên' }).click();
    const members = page.getByRole('complementary', { name: 'Thành viên' });
    await expect(members).toContainText(b!.daoHieu);
    await expect(threadPanel(page)).toHaveCount(0);
    await expect(channelComposer(page)).toBeVisible();
    await snap(page, 'chat-members-panel');
  });

  test('clicking a pinned message that is not loaded jumps to it and highlights it', async () => {
    const owner = await ownChatClient(a!);
    try {
      await owner.pinMessage(group.ids[1]!);
    } finally {
      await owner.disconnectUser();
    }
    const page = a!.page;
    await openChat(page, group.path, SLOW);
    const pinnedText = numbered(group.tag, 1);
    await expect(channelMessage(page, numbered(group.tag, MESSAGES - 1))).toBeVisible(SLOW);
    await expect(channelMessage(page, pinnedText)).toHaveCount(0);

    await page.getByRole('button', { name: 'Tin nhắn đã ghim' }).click();
    const pins = page.getByRole('complementary', { name: 'Tin nhắn đã ghim' });
    await pins.getByRole('button', { name: new RegExp(pinnedText) }).click();
    const pinned = channelMessage(page, pinnedText);
    await expect(pinned).toHaveClass(/str-chat__message--highlighted/, SLOW);
    await expect(pinned).toBeInViewport();
  });

  test('a message arriving today adds no second "Hôm nay" separator', async () => {
    const page = a!.page;
    await openChat(page, group.path, SLOW);
    await expect(channelMessage(page, numbered(group.tag, MESSAGES - 1))).toBeVisible(SLOW);
    const today = page
      .locator('.str-chat__main-panel')
      .getByTestId('date-separator')
      .filter({ hasText: 'Hôm nay' });
    await expect(today).toHaveCount(1);

    let other: StreamChat | undefined;
    try {
      other = await ownChatClient(b!);
      const live = `Tin mới đến · ${group.tag}`;
      await other.channel('messaging', group.path.split('/').at(-1)!).sendMessage({ text: live });
      await expect(channelMessage(page, live)).toBeVisible(SLOW);
      await send(channelComposer(page), `Đã nhận · ${group.tag}`);
      await expect(channelMessage(page, `Đã nhận · ${group.tag}`)).toBeVisible(SLOW);
      await expect(today).toHaveCount(1);
    } finally {
      await other?.disconnectUser();
    }
  });

  test("a group's avatar shows at most two faces, in the channel list and the header", async () => {
    const page = a!.page;
    await openChat(page, group.path, SLOW);
    const rowAvatar = channelListItem(page, group.name).getByTestId('group-avatar');
    await expect(rowAvatar.locator('.str-chat__avatar')).toHaveCount(2);
    // Two other members, so one's own face is left out.
    await expect(rowAvatar).not.toContainText('TV');
    const headerAvatar = channelHeader(page).getByTestId('group-avatar');
    await expect(headerAvatar.locator('.str-chat__avatar')).toHaveCount(2);
  });

  test('a conversation that fits on screen shows its date once, not again in the band above', async () => {
    const page = a!.page;
    const id = `ngan-${group.tag}`;
    const text = `Vài lời · ${group.tag}`;
    const client = await ownChatClient(a!);
    try {
      const members = [await userIdOf(a!), await userIdOf(b!)];
      const channel = client.channel('messaging', id, { members } as never);
      await channel.create();
      await channel.sendMessage({ text });
    } finally {
      await client.disconnectUser();
    }
    await openChat(page, `/chat/messaging/${id}`, SLOW);
    await expect(channelMessage(page, text)).toBeVisible(SLOW);
    const dates = page
      .locator('.str-chat__main-panel .str-chat__date-separator')
      .filter({ hasText: 'Hôm nay' });
    await expect(dates).toHaveCount(1);
    // The SDK decides on the floating date a moment after the list lays out (a throttled check).
    await page.waitForTimeout(500);
    await expect(dates).toHaveCount(1);
    await expect(dates).not.toHaveClass(/str-chat__date-separator--floating/);
  });

  test('the members panel shows every row whole: a long name gives way, the realm badge stays inside', async () => {
    const page = a!.page;
    await openChat(page, group.path, SLOW);
    await page.getByRole('button', { name: 'Thành viên' }).click();
    const panel = page.getByRole('complementary', { name: 'Thành viên' });
    const rows = panel.getByTestId('member-row');
    await expect(rows).toHaveCount(3);
    const panelBox = (await panel.boundingBox())!;
    for (const row of await rows.all()) {
      const box = (await row.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(panelBox.x + panelBox.width + 0.5);
      const badge = (await row.getByTestId('realm-badge').boundingBox())!;
      expect(badge.x + badge.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
    }
  });

  test("a channel's menu in the list opens whole, inside the list pane", async () => {
    const page = a!.page;
    await openChat(page, group.path, SLOW);
    const item = page
      .locator('.str-chat__channel-list-item-container')
      .filter({ has: channelListItem(page, group.name) });
    await item.hover();
    await item.getByRole('button', { name: 'Mở menu thao tác với kênh' }).click();
    const menu = page.getByTestId('channel-list-item-context-menu');
    await expect(menu.getByText('Rời kênh')).toBeVisible();
    const pane = await page.locator('.str-chat__channel-list').boundingBox();
    const box = await menu.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(pane!.x);
    expect(box!.x + box!.width).toBeLessThanOrEqual(pane!.x + pane!.width);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  });
});

test.describe('on a phone', () => {
  let a: ChatUser | undefined;
  let b: ChatUser | undefined;
  let group: Group;

  test.beforeEach(async ({ browser, baseURL }) => {
    a = await newChatUser(browser, baseURL, 'Thanh Vân');
    b = await newChatUser(browser, baseURL, 'Lạc Hà');
    group = await filledGroup(a, [b], 'dt');
  });

  test.afterEach(async () => {
    await closeChatUsers(a, b);
  });

  test('at 375 × 812, then 375 × 400 with the keyboard up, the channel header and the composer stay on screen', async () => {
    const page = a!.page;
    await page.setViewportSize({ width: 375, height: 812 });
    await openChat(page, '/chat', SLOW);
    await channelListItem(page, group.name).click();
    const composer = channelComposer(page);
    await expect(composer).toBeVisible(SLOW);
    expect(await inViewport(page, channelHeader(page))).toBe(true);
    expect(await inViewport(page, composer)).toBe(true);

    // The on-screen keyboard shortens the viewport (index.html: interactive-widget=resizes-content).
    await page.setViewportSize({ width: 375, height: 400 });
    await composer.click();
    await composer.fill('Đang gõ khi bàn phím mở');
    await expect.poll(() => inViewport(page, composer)).toBe(true);
    expect(await inViewport(page, channelHeader(page))).toBe(true);
    await snap(page, 'chat-mobile-keyboard');
  });

  test('at 375 the channel list, the channel and a thread are three screens, and back returns through them', async () => {
    const page = a!.page;
    await page.setViewportSize(VIEWPORTS.mobile);
    await openChat(page, '/chat', SLOW);
    const list = page.getByRole('listbox', { name: 'Danh sách kênh' });
    await channelListItem(page, group.name).click();
    await expect(page).toHaveURL(group.path);
    await expect(channelComposer(page)).toBeVisible(SLOW);
    await expect(list).toBeHidden();

    // The thread covers the channel; its back arrow returns to it.
    await openLastThread(page, group);
    const pane = await page.locator('.dh-chat__channel').boundingBox();
    const covering = await threadPanel(page).boundingBox();
    if (!pane || !covering) throw new Error('The channel pane or the thread is not rendered.');
    expect(Math.abs(covering.x - pane.x)).toBeLessThan(2);
    expect(Math.abs(covering.width - pane.width)).toBeLessThan(2);
    await page.getByRole('button', { name: 'Quay lại kênh' }).click();
    await expect(threadPanel(page)).toHaveCount(0);
    await expect(channelComposer(page)).toBeVisible();
    // Closing steps back over the thread's history entry, which lands a moment later.
    await expect.poll(() => threadEntry(page)).toBeNull();

    // The browser's back button closes a thread too, then returns to the channel list.
    await openLastThread(page, group);
    await expect.poll(() => threadEntry(page)).not.toBeNull();
    await page.goBack();
    await expect(threadPanel(page)).toHaveCount(0);
    await expect(page).toHaveURL(group.path);
    await expect(channelComposer(page)).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL('/chat');
    await expect(list).toBeVisible();
    await expect(channelListItem(page, group.name)).toBeVisible();
  });

  test("at 375 the channel header's back arrow steps back through the app, or opens the list from a fresh tab", async () => {
    const page = a!.page;
    await page.setViewportSize(VIEWPORTS.mobile);
    await openChat(page, '/chat', SLOW);
    const list = page.getByRole('listbox', { name: 'Danh sách kênh' });
    // The header's back arrow steps back through the app's history, as the browser's back button does: the channel
    // is then ahead in the history, not behind.
    await channelListItem(page, group.name).click();
    await expect(channelComposer(page)).toBeVisible(SLOW);
    await page.getByRole('link', { name: 'Về danh sách kênh' }).click();
    await expect(page).toHaveURL('/chat');
    await expect(list).toBeVisible();
    await page.goForward();
    await expect(page).toHaveURL(group.path);
    await expect(channelComposer(page)).toBeVisible(SLOW);

    // A channel opened from a link in a new tab has no app screen behind it: the arrow opens the channel list.
    const tab = await a!.context.newPage();
    try {
      await tab.setViewportSize(VIEWPORTS.mobile);
      await tab.goto(group.path);
      await expect(channelComposer(tab)).toBeVisible(SLOW);
      await tab.getByRole('link', { name: 'Về danh sách kênh' }).click();
      await expect(tab).toHaveURL('/chat');
      await expect(tab.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible();
      // The list was opened on top of the channel, not by leaving it.
      await tab.goBack();
      await expect(tab).toHaveURL(group.path);
    } finally {
      await tab.close();
    }
  });
});
