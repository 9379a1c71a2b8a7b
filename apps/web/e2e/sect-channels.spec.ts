import { expect, test, type Page, type Request } from '@playwright/test';
import { closeChatUsers, newChatUser, ownChatClient, type ChatUser } from './chat-support';

// #10: a livestream channel any cultivator creates must not show up in everyone's sidebar as a sect channel.

const OFFICIAL = ['Quảng Trường', 'Luận Đạo', 'Giao Dịch'];
const OFFICIAL_IDS = ['quang-truong', 'luan-dao', 'giao-dich'];
/** The shared machine can be slow to connect the chat: wait longer than the default, still bounded. */
const CHAT_READY = { timeout: 20_000 };

let creator: ChatUser | undefined;
let reader: ChatUser | undefined;
let fakeName = '';

/** The creator makes a livestream channel with their own chat client, as anyone may. */
async function createLivestreamChannel(user: ChatUser, name: string): Promise<void> {
  const client = await ownChatClient(user);
  try {
    const channel = client.channel('livestream', `mao-danh-${Date.now().toString(36)}`, {
      name,
      members: [client.userID!],
    });
    await channel.create();
    // A message makes it the most recently active channel, first in a list sorted by last message.
    await channel.sendMessage({ text: 'Mời chư vị ghé kênh chính thức của tông môn!' });
  } finally {
    await client.disconnectUser();
  }
}

/** Opens the chat and returns the filter the app sent for its channel list. */
async function openSidebar(page: Page): Promise<Record<string, unknown>> {
  const query = page.waitForRequest(
    (request: Request) =>
      request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/chat/channels'),
    CHAT_READY,
  );
  await page.goto('/chat');
  const body = (await query).postDataJSON() as { filter_conditions: Record<string, unknown> };
  const sects = page.getByRole('group', { name: 'Kênh tông môn' });
  for (const name of OFFICIAL) {
    await expect(sects.getByRole('option', { name: new RegExp(`^${name}\\.`) })).toBeVisible(
      CHAT_READY,
    );
  }
  return body.filter_conditions;
}

function expectOnlyOfficial(filter: Record<string, unknown>): void {
  expect(JSON.stringify(filter)).toContain(JSON.stringify({ $in: OFFICIAL_IDS }));
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, baseURL }) => {
  creator = await newChatUser(browser, baseURL, 'Mạo Danh');
  fakeName = `Kênh Tông Môn Chính Thức ${Date.now().toString(36)}`;
  await createLivestreamChannel(creator, fakeName);
});

test.afterAll(async () => {
  await closeChatUsers(creator, reader);
});

test("another cultivator's sidebar lists only the official sect channels", async ({
  browser,
  baseURL,
}) => {
  test.slow();
  reader = await newChatUser(browser, baseURL, 'Đệ Tử');
  const filter = await openSidebar(reader.page);
  expectOnlyOfficial(filter);
  await expect(reader.page.getByRole('option', { name: new RegExp(fakeName) })).toHaveCount(0);
  await expect(
    reader.page.getByRole('group', { name: 'Kênh tông môn' }).getByRole('option'),
  ).toHaveCount(3);
});

test("a visitor's sidebar lists only the official sect channels", async ({ page }) => {
  test.slow();
  const filter = await openSidebar(page);
  expectOnlyOfficial(filter);
  await expect(page.getByRole('option', { name: new RegExp(fakeName) })).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Kênh tông môn' }).getByRole('option')).toHaveCount(
    3,
  );
});
