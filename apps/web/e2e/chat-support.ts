import {
  expect,
  request,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { StreamChat } from 'stream-chat';
import {
  ADMIN,
  VIEWPORTS,
  newCultivator,
  signInViaApi,
  signUpViaApi,
  type Cultivator,
} from './support';

/** A signed-in cultivator in their own browser context (their own cookies, their own chat connection). */
export interface ChatUser extends Cultivator {
  context: BrowserContext;
  page: Page;
}

function requireBaseURL(baseURL: string | undefined): string {
  if (!baseURL) throw new Error('The Playwright project has no baseURL.');
  return baseURL;
}

/** Signs a fresh cultivator up through the real server and opens a page for them; nothing is loaded yet. */
export async function newChatUser(
  browser: Browser,
  baseURL: string | undefined,
  prefix: string,
): Promise<ChatUser> {
  const base = requireBaseURL(baseURL);
  const who = newCultivator(prefix);
  const context = await browser.newContext({
    baseURL: base,
    viewport: VIEWPORTS.desktop,
    locale: 'vi-VN',
    reducedMotion: 'reduce',
  });
  // The context's request client shares its cookie jar: the session cookie lands in the browser.
  await signUpViaApi(context.request, base, who);
  const page = await context.newPage();
  return { ...who, context, page };
}

/**
 * The cultivator's own chat client in Node, connected with the config and token the product hands their browser:
 * for set-ups a test makes as that member without going through the screens. The caller disconnects it.
 */
export async function ownChatClient(user: ChatUser): Promise<StreamChat> {
  const config = (await (await user.context.request.get('/api/chat/config')).json()) as {
    apiKey: string;
    baseURL: string;
  };
  const { token, userId } = (await (await user.context.request.get('/api/chat/token')).json()) as {
    token: string;
    userId: string;
  };
  const client = new StreamChat(config.apiKey, {
    baseURL: config.baseURL,
    allowServerSideConnect: true,
  });
  await client.connectUser({ id: userId }, token);
  return client;
}

/** The cultivator's product id (also their chat user id), as /api/me answers it. */
export async function userIdOf(user: ChatUser): Promise<string> {
  return ((await (await user.context.request.get('/api/me')).json()) as { id: string }).id;
}

/** POSTs to the chat server as the signed-in user of `api` (their own chat token), as the page's client would. */
export async function chatApi(
  api: APIRequestContext,
  path: string,
  data: unknown,
): Promise<unknown> {
  const config = (await (await api.get('/api/chat/config')).json()) as {
    apiKey: string;
    baseURL: string | null;
  };
  const { token } = (await (await api.get('/api/chat/token')).json()) as { token: string };
  if (!config.baseURL) throw new Error('The e2e server runs the embedded chat; it has a base URL.');
  const response = await api.fetch(`${config.baseURL.replace(/\/+$/, '')}${path}`, {
    method: 'POST',
    params: { api_key: config.apiKey },
    headers: { Authorization: token, 'stream-auth-type': 'jwt' },
    data,
  });
  expect(response.ok(), await response.text()).toBe(true);
  return response.json() as Promise<unknown>;
}

/** Sets a cultivator's tu vi as the demo admin would (the product syncs it to the chat user as `tu_vi`). */
export async function setTuViAsAdmin(
  baseURL: string | undefined,
  email: string,
  tuVi: number,
): Promise<void> {
  const base = requireBaseURL(baseURL);
  const admin = await request.newContext({ baseURL: base });
  try {
    await signInViaApi(admin, base, ADMIN);
    const headers = { Origin: new URL(base).origin };
    const list = await admin.get('/api/admin/users', { params: { query: email }, headers });
    expect(list.status(), await list.text()).toBe(200);
    const { users } = (await list.json()) as { users: { id: string; email: string }[] };
    const user = users.find((candidate) => candidate.email === email);
    if (!user) throw new Error(`No user with email ${email}.`);
    const patch = await admin.patch(`/api/admin/users/${user.id}`, { data: { tuVi }, headers });
    expect(patch.status(), await patch.text()).toBe(200);
  } finally {
    await admin.dispose();
  }
}

/**
 * Opens the chat and waits until it is connected (the channel list is on screen). The chat's code loads on demand
 * and then connects: more than the default 5 s on a loaded machine, so the wait is 20 s unless a spec asks longer.
 */
export async function openChat(
  page: Page,
  path = '/chat',
  ready: { timeout: number } = { timeout: 20_000 },
): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible(ready);
}

export function channelListItem(page: Page, title: string | RegExp): Locator {
  return page.getByTestId('channel-list-item-button').filter({ hasText: title });
}

/** The composer of the open channel (not the thread's). */
export function channelComposer(page: Page): Locator {
  return page.locator('.str-chat__main-panel textarea.str-chat__textarea__textarea');
}

export function threadComposer(page: Page): Locator {
  return page.locator('.str-chat__thread-container textarea.str-chat__textarea__textarea');
}

/** A message in the open channel's list, by its text. */
export function channelMessage(page: Page, text: string | RegExp): Locator {
  return page.locator('.str-chat__main-panel .str-chat__message').filter({ hasText: text });
}

export function threadMessage(page: Page, text: string | RegExp): Locator {
  return page.locator('.str-chat__thread-container .str-chat__message').filter({ hasText: text });
}

export async function send(composer: Locator, text: string): Promise<void> {
  await composer.click();
  await composer.fill(text);
  await composer.press('Enter');
}

/** Starts a direct message with `other` through the "Cuộc trò chuyện mới" dialog; returns the channel's URL. */
export async function startDirectMessage(page: Page, other: Cultivator): Promise<string> {
  await page.getByRole('button', { name: 'Cuộc trò chuyện mới' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cuộc trò chuyện mới' });
  await dialog.getByLabel('Đạo hiệu').fill(other.daoHieu);
  await dialog.getByRole('checkbox', { name: new RegExp(other.daoHieu) }).click();
  await dialog.getByRole('button', { name: 'Nhắn tin' }).click();
  // Creating the conversation is a server round trip (and a watch) before the dialog closes: on a loaded machine
  // that takes longer than the default 5 s.
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/chat\/messaging\/[^/]+$/, { timeout: 15_000 });
  return new URL(page.url()).pathname;
}

/**
 * A opens the chat and starts a direct message with B; with `bOpens`, B opens the conversation too (its composer
 * ready). Returns the conversation's URL.
 */
export async function openDirectMessage(
  a: ChatUser,
  b: ChatUser,
  { bOpens = false }: { bOpens?: boolean } = {},
): Promise<string> {
  await openChat(a.page);
  const path = await startDirectMessage(a.page, b);
  if (bOpens) {
    await b.page.goto(path);
    await expect(channelComposer(b.page)).toBeVisible();
  }
  return path;
}

/** Closes the browser contexts of the spec's cultivators (those that were created). */
export async function closeChatUsers(...users: (ChatUser | undefined)[]): Promise<void> {
  for (const user of users) await user?.context.close();
}

/** Opens a message's "…" menu and picks an action by its Vietnamese label. */
export async function messageAction(message: Locator, label: string): Promise<void> {
  await message.hover();
  await message.getByRole('button', { name: 'Mở menu thao tác với tin nhắn' }).click();
  await message.page().getByRole('menuitem', { name: label }).click();
}

/** The toasts sonner shows (the chat's notifications end up there). */
export function toasts(page: Page): Locator {
  return page.locator('[data-sonner-toast]');
}

/** The "Trò chuyện" entry of the sidebar and its unread badge. */
export function sidebarChatBadge(page: Page): Locator {
  return page
    .locator('[data-slot="sidebar-menu-item"]')
    .filter({ hasText: 'Trò chuyện' })
    .getByTestId('chat-unread-badge');
}
