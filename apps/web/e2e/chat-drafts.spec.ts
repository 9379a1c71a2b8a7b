import { expect, test } from '@playwright/test';
import {
  channelComposer,
  channelMessage,
  closeChatUsers,
  newChatUser,
  openChat,
  openDirectMessage,
  send,
  toasts,
  type ChatUser,
} from './chat-support';

// One cultivator's unsent text in a direct message: it survives a reload, another channel and another device.
test.describe.configure({ mode: 'serial' });

let a: ChatUser;
let b: ChatUser;
let dmPath: string;
const tag = Date.now().toString(36);
const draft = `Bản nháp chưa gửi ${tag}`;

/** Waits for the draft to reach the server (the composer saves it shortly after typing stops). */
function draftSaved(user: ChatUser) {
  return user.page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      /\/channels\/messaging\/[^/]+\/draft$/.test(new URL(response.url()).pathname) &&
      response.ok(),
  );
}

test.beforeAll(async ({ browser, baseURL }) => {
  a = await newChatUser(browser, baseURL, 'Nháp');
  b = await newChatUser(browser, baseURL, 'Bạn Nháp');
  dmPath = await openDirectMessage(a, b);
});

test.afterAll(async () => closeChatUsers(a, b));

test('text typed in a channel survives a reload', async () => {
  const saved = draftSaved(a);
  await channelComposer(a.page).fill(draft);
  await saved;
  await a.page.reload();
  await expect(channelComposer(a.page)).toHaveValue(draft);
});

test('the draft survives opening another channel and coming back', async () => {
  await a.page
    .getByTestId('channel-list-item-button')
    .filter({ hasNotText: b.daoHieu })
    .first()
    .click();
  await expect(a.page).not.toHaveURL(dmPath);
  await expect(channelComposer(a.page)).toHaveValue('');
  await a.page.getByTestId('channel-list-item-button').filter({ hasText: b.daoHieu }).click();
  await expect(a.page).toHaveURL(dmPath);
  await expect(channelComposer(a.page)).toHaveValue(draft);
});

test('the draft reaches another device of the same cultivator', async ({ browser, baseURL }) => {
  const other = await browser.newContext({ baseURL, locale: 'vi-VN', reducedMotion: 'reduce' });
  try {
    await other.addCookies(await a.context.cookies());
    const page = await other.newPage();
    await openChat(page, dmPath);
    await expect(channelComposer(page)).toHaveValue(draft);
  } finally {
    await other.close();
  }
});

test('sending the message clears the draft', async () => {
  const deleted = a.page.waitForResponse(
    (response) => response.request().method() === 'DELETE' && /\/draft(\?|$)/.test(response.url()),
  );
  await send(channelComposer(a.page), draft.replace('chưa gửi', 'đã gửi'));
  await expect(channelMessage(a.page, 'Bản nháp đã gửi')).toBeVisible();
  await deleted;
  await a.page.reload();
  await expect(channelMessage(a.page, 'Bản nháp đã gửi')).toBeVisible();
  await expect(channelComposer(a.page)).toHaveValue('');
});

test('a draft that cannot be loaded is reported in Vietnamese', async () => {
  // The request is cut before it leaves the browser: the server itself is untouched.
  await a.page.route(/\/channels\/messaging\/[^/]+\/draft(\?|$)/, (route) =>
    route.request().method() === 'GET' ? route.abort('connectionfailed') : route.fallback(),
  );
  await a.page.reload();
  await expect(toasts(a.page).filter({ hasText: 'Không tải được bản nháp' })).toBeVisible();
  await a.page.unroute(/\/channels\/messaging\/[^/]+\/draft(\?|$)/);
});
