import { expect, test, type Page } from '@playwright/test';
import { StreamChat } from 'stream-chat';
import { channelComposer, closeChatUsers, newChatUser, send, type ChatUser } from './chat-support';

// #13: the app and the chat work under the Content-Security-Policy the server sends, without a single violation.

/** A 64×48 PNG: a real image the chat server can measure and thumbnail. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAfUlEQVR4nO2SwQ0AQRCC/NP31UR5V4aZrAkFgDF+nCZ1AxdAfUV3Ie6SuoELoL6iuxB3Sd3ABVBf0V2Iu6Ru4AKor+guxF1SN3AB1Fd0F+IuqRu4AOorugtxl9QNXAD1Fd2FuEvqBi6A+oruQtwldQMXQH1FdyHukrqBjwf8uy5s4s/r9SYAAAAASUVORK5CYII=',
  'base64',
);

interface Violations {
  events: string[];
  console: string[];
}

/** Records every CSP violation the page reports, as an event and as Chromium's "Refused to …" console message. */
async function watchViolations(page: Page): Promise<Violations> {
  const violations: Violations = { events: [], console: [] };
  await page.exposeFunction('reportCspViolation', (text: string) => violations.events.push(text));
  // Init scripts run before the page's own, and the policy does not apply to them.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void })
        .reportCspViolation;
      report(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on('console', (message) => {
    if (/Refused to|Content Security Policy/i.test(message.text()))
      violations.console.push(message.text());
  });
  return violations;
}

/** The shared machine can be slow to connect the chat: wait longer than the default, still bounded. */
const CHAT_READY = { timeout: 20_000 };

async function openChatAt(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('listbox', { name: 'Danh sách kênh' })).toBeVisible(CHAT_READY);
}

/**
 * The direct message of `a` and `b`, created by `a`'s own chat client as the web app would (the dialog that does it
 * is covered by chat-group.spec.ts); returns its page path.
 */
async function directMessagePath(a: ChatUser, b: ChatUser): Promise<string> {
  const config = (await (await a.context.request.get('/api/chat/config')).json()) as {
    apiKey: string;
    baseURL: string;
  };
  const token = async (user: ChatUser) =>
    (await (await user.context.request.get('/api/chat/token')).json()) as {
      token: string;
      userId: string;
    };
  const [ofA, ofB] = [await token(a), await token(b)];
  const client = new StreamChat(config.apiKey, {
    baseURL: config.baseURL,
    allowServerSideConnect: true,
  });
  await client.connectUser({ id: ofA.userId }, ofA.token);
  try {
    const channel = client.channel('messaging', { members: [ofA.userId, ofB.userId] });
    await channel.create();
    return `/chat/messaging/${channel.id}`;
  } finally {
    await client.disconnectUser();
  }
}

let a: ChatUser | undefined;
let b: ChatUser | undefined;

test.afterEach(async () => {
  await closeChatUsers(a, b);
  a = undefined;
  b = undefined;
});

test('the signed-in app and the chat, with an image attachment, run under the policy without a violation', async ({
  browser,
  baseURL,
}) => {
  test.slow();
  a = await newChatUser(browser, baseURL, 'Hộ Pháp');
  b = await newChatUser(browser, baseURL, 'Kiếm Tu');
  const seenByA = await watchViolations(a.page);
  const seenByB = await watchViolations(b.page);

  const home = await a.page.goto('/');
  const policy = home?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(home?.headers()['x-frame-options']).toBe('DENY');
  await expect(a.page.getByRole('heading').first()).toBeVisible();

  // The public sect channel: emblems (data: images), the websocket, the message list and its styles.
  await openChatAt(a.page, '/chat/sect/quang-truong');
  await expect(channelComposer(a.page)).toBeVisible(CHAT_READY);

  const path = await directMessagePath(a, b);
  for (const page of [a.page, b.page]) {
    await page.goto(path);
    await expect(channelComposer(page)).toBeVisible(CHAT_READY);
  }
  const uploaded = a.page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      /\/chat\/channels\/messaging\/[^/]+\/image$/.test(new URL(response.url()).pathname),
  );
  await a.page
    .locator('.str-chat__main-panel')
    .getByTestId('file-input')
    .setInputFiles({ name: 'phap-bao.png', mimeType: 'image/png', buffer: PNG });
  expect((await uploaded).ok()).toBe(true);
  const text = `Pháp bảo mới ${Date.now().toString(36)}`;
  await send(channelComposer(a.page), text);

  for (const page of [a.page, b.page]) {
    const image = page.locator('.str-chat__main-panel .str-chat__message img[src*="phap-bao.png"]');
    await expect(image.first()).toBeVisible(CHAT_READY);
    // Loaded, not just in the DOM: a blocked image has no natural size.
    await expect
      .poll(() => image.first().evaluate((element) => (element as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  }

  // The profile page too (avatar, forms).
  await a.page.goto('/ho-so');
  await expect(a.page.getByRole('heading').first()).toBeVisible();

  expect(seenByA).toEqual({ events: [], console: [] });
  expect(seenByB).toEqual({ events: [], console: [] });

  // The watch works, and the policy bites: a tracker pixel from a plain-http site is refused and reported.
  await a.page.evaluate(() => {
    const pixel = new Image();
    pixel.src = 'http://tracker.invalid/pixel.gif';
    document.body.append(pixel);
  });
  await expect.poll(() => seenByA.events).toEqual(['img-src http://tracker.invalid/pixel.gif']);
  await expect.poll(() => seenByA.console.length).toBe(1);
});

test('a visitor who is not signed in reads the chat under the policy without a violation', async ({
  page,
}) => {
  test.slow();
  const seen = await watchViolations(page);
  await openChatAt(page, '/chat/sect/luan-dao');
  await expect(page.locator('.str-chat__main-panel .str-chat__message').first()).toBeVisible(
    CHAT_READY,
  );
  expect(seen).toEqual({ events: [], console: [] });
});
