import { expect, test, type Page } from '@playwright/test';
import {
  channelComposer,
  channelMessage,
  newChatUser,
  openChat,
  send,
  toasts,
} from './chat-support';

// Runs in the "short-chat-tokens" project: that server's chat tokens expire after a few seconds.

function isTokenRequest(url: string): boolean {
  return new URL(url).pathname === '/api/chat/token';
}

/** Waits until the token the server handed out has expired, by its own `expiresAt` (plus a margin). */
async function outliveToken(page: Page, expiresAt: string): Promise<void> {
  const remaining = new Date(expiresAt).getTime() - Date.now() + 750;
  expect(remaining, 'this project expects tokens that live a few seconds').toBeLessThan(15_000);
  if (remaining > 0) await page.waitForTimeout(remaining);
}

test('the chat keeps working across token expiry: a message sent afterwards goes out, with no error shown', async ({
  browser,
  baseURL,
}) => {
  const user = await newChatUser(browser, baseURL, 'Trường Sinh');
  const { page } = user;
  try {
    let tokenRequests = 0;
    page.on('request', (request) => {
      if (isTokenRequest(request.url())) tokenRequests += 1;
    });
    const firstToken = page.waitForResponse((response) => isTokenRequest(response.url()));
    await openChat(page, '/chat/sect/quang-truong');
    const { expiresAt } = (await (await firstToken).json()) as { expiresAt: string };

    await send(channelComposer(page), 'Trước khi ấn tín hết hạn.');
    await expect(channelMessage(page, 'Trước khi ấn tín hết hạn.')).toHaveClass(
      /str-chat__message--received/,
    );

    await outliveToken(page, expiresAt);
    await send(channelComposer(page), 'Sau khi ấn tín hết hạn.');
    const late = channelMessage(page, 'Sau khi ấn tín hết hạn.');
    await expect(late).toHaveClass(/str-chat__message--received/);
    await expect(late).not.toHaveClass(/str-chat__message--failed/);
    // The client fetched a new token by itself (code 40 → token provider → retry), and said nothing about it.
    expect(tokenRequests).toBeGreaterThanOrEqual(2);
    await expect(toasts(page)).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'Mất kết nối' })).toHaveCount(0);

    // It really reached the server: it is still there after a reload (which connects with yet another token).
    await page.reload();
    await expect(channelMessage(page, 'Sau khi ấn tín hết hạn.')).toBeVisible();
  } finally {
    await user.context.close();
  }
});
