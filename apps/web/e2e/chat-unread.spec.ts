import { expect, test, type Page } from '@playwright/test';
import {
  channelComposer,
  channelListItem,
  channelMessage,
  messageAction,
  newChatUser,
  openChat,
  ownChatClient,
  send,
  sidebarChatBadge,
  startDirectMessage,
  toasts,
} from './chat-support';
import { VIEWPORTS, snap } from './support';

test("B's unread badge rises with A's messages and clears when B opens the conversation", async ({
  browser,
  baseURL,
}) => {
  const a = await newChatUser(browser, baseURL, 'Tiêu Dao');
  const b = await newChatUser(browser, baseURL, 'Bích Lạc');
  try {
    // B is elsewhere in the app: only the sidebar can tell them something arrived.
    await b.page.goto('/');
    await expect(b.page.getByRole('link', { name: 'Trò chuyện' })).toBeVisible();
    await expect(sidebarChatBadge(b.page)).toHaveCount(0);

    await openChat(a.page);
    await startDirectMessage(a.page, b);
    await send(channelComposer(a.page), 'Đạo hữu có nhà không?');
    await expect(sidebarChatBadge(b.page)).toHaveText('1');
    await send(channelComposer(a.page), 'Ta mang trà Long Tỉnh đến đây.');
    await expect(channelMessage(a.page, 'Long Tỉnh')).toBeVisible();
    await expect(sidebarChatBadge(b.page)).toHaveText('2');
    await expect(sidebarChatBadge(b.page)).toHaveAttribute('aria-label', '2 tin nhắn chưa đọc');
    await snap(b.page, 'chat-unread-sidebar');

    // In the chat, the conversation carries the same count until B opens it.
    await b.page.getByRole('link', { name: 'Trò chuyện' }).click();
    const item = channelListItem(b.page, a.daoHieu);
    await expect(item.getByTestId('unread-badge')).toHaveText('2');
    await item.click();
    await expect(channelMessage(b.page, 'Long Tỉnh')).toBeVisible();
    await expect(item.getByTestId('unread-badge')).toHaveCount(0);
    await expect(sidebarChatBadge(b.page)).toHaveCount(0);

    // A new message while B has the conversation open is read on arrival.
    await send(channelComposer(a.page), 'Trà nguội mất rồi.');
    await expect(channelMessage(b.page, 'Trà nguội')).toBeVisible();
    await expect(sidebarChatBadge(b.page)).toHaveCount(0);

    // "Mark as unread" from a message brings the badge back, counting from that message.
    await messageAction(channelMessage(b.page, 'Long Tỉnh'), 'Đánh dấu tin nhắn là chưa đọc');
    await expect(
      toasts(b.page).filter({ hasText: 'Đã đánh dấu tin nhắn là chưa đọc' }),
    ).toBeVisible();
    await expect(sidebarChatBadge(b.page)).toHaveText('2');
    // It stays so: reading on arrival must not undo the mark a moment later.
    await b.page.waitForTimeout(1_500);
    await expect(sidebarChatBadge(b.page)).toHaveText('2');
  } finally {
    await a.context.close();
    await b.context.close();
  }
});

/** A box on screen, as getBoundingClientRect gives it. */
interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The floating pills and the message texts the reader can see (each clipped to the list's visible area), and whether
 * any pill overlaps any of them.
 */
async function pillsOverText(
  page: Page,
): Promise<{ pills: number; texts: number; overlaps: string[] }> {
  return page.evaluate(() => {
    const box = (el: Element): Box => el.getBoundingClientRect();
    const clip = (a: Box, b: Box): Box | null => {
      const out = {
        left: Math.max(a.left, b.left),
        top: Math.max(a.top, b.top),
        right: Math.min(a.right, b.right),
        bottom: Math.min(a.bottom, b.bottom),
      };
      return out.right > out.left && out.bottom > out.top ? out : null;
    };
    const panel = document.querySelector(
      '.str-chat__main-panel .str-chat__message-list-main-panel',
    );
    const list = panel?.querySelector(':scope > .str-chat__message-list');
    if (!panel || !list) return { pills: 0, texts: 0, overlaps: ['no message list'] };
    const pills = [
      ...panel.querySelectorAll(
        ':scope > .str-chat__unread-messages-notification, :scope > .str-chat__date-separator--floating .str-chat__date-separator-date',
      ),
    ];
    const texts = [...list.querySelectorAll('.str-chat__message-text')]
      .map((text) => ({ text, visible: clip(box(text), box(list)) }))
      .filter((entry): entry is { text: Element; visible: Box } => entry.visible !== null);
    const overlaps = pills.flatMap((pill) =>
      texts
        .filter(({ visible }) => clip(box(pill), visible) !== null)
        .map(({ text }) => `${pill.textContent ?? ''} over "${text.textContent ?? ''}"`),
    );
    return { pills: pills.length, texts: texts.length, overlaps };
  });
}

/** The last item of the open message menu: inside the window, and the element found at its centre is the item. */
async function lastMenuItemIsReachable(page: Page): Promise<{ label: string; reachable: boolean }> {
  const last = page.getByRole('menuitem').last();
  return last.evaluate((item) => {
    // A menu taller than its room scrolls inside itself, as the reader would scroll it; nothing else may move (a
    // scrollIntoView would also scroll the chat frame and hide a menu that runs off the screen).
    const menu = item.closest('.str-chat__context-menu');
    if (menu) menu.scrollTop = menu.scrollHeight;
    const { left, top, right, bottom } = item.getBoundingClientRect();
    const inWindow = left >= 0 && top >= 0 && right <= innerWidth && bottom <= innerHeight;
    const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
    return {
      label: item.textContent ?? '',
      reachable: inWindow && hit !== null && item.contains(hit),
    };
  });
}

/**
 * The messages shown whole in the list, by line number, once the list holds still (after a resize the SDK keeps its
 * scroll position for a few frames, and a message hovered meanwhile moves from under the pointer).
 */
async function settledWholeLines(page: Page): Promise<string[]> {
  const read = () =>
    page.evaluate(async () => {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const list = document.querySelector('.str-chat__main-panel .str-chat__message-list');
      if (!list) return [];
      const { top, bottom } = list.getBoundingClientRect();
      return [...list.querySelectorAll('.str-chat__message')]
        .filter((message) => {
          const box = message.getBoundingClientRect();
          return box.top >= top && box.bottom <= bottom;
        })
        .map((message) => /Câu thứ (\d+) /.exec(message.textContent ?? '')?.[1] ?? '');
    });
  let previous = await read();
  await expect
    .poll(async () => {
      const current = await read();
      const same = current.join() === previous.join();
      previous = current;
      return same;
    })
    .toBe(true);
  return previous;
}

test('the unread and date pills never cover message text, and every message menu is whole and above the composer', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const a = await newChatUser(browser, baseURL, 'Lạc Hà');
  const b = await newChatUser(browser, baseURL, 'Cô Vân');
  try {
    await openChat(a.page);
    const path = await startDirectMessage(a.page, b);
    // Enough messages to scroll, all unread by B, sent through A's own client so the set-up is quick.
    const client = await ownChatClient(a);
    try {
      const channel = client.channel('messaging', path.split('/').pop());
      for (let line = 1; line <= 30; line += 1) {
        await channel.sendMessage({ text: `Câu thứ ${line} trong cuộc đàm đạo dài.` });
      }
    } finally {
      await client.disconnectUser();
    }

    await b.page.goto(path);
    await expect(channelMessage(b.page, 'Câu thứ 30 ')).toBeVisible({ timeout: 20_000 });
    const pill = b.page.getByTestId('unread-messages-notification');
    await expect(pill).toContainText('30 chưa đọc');

    for (const scheme of ['light', 'dark'] as const) {
      await b.page.emulateMedia({ colorScheme: scheme });
      for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.tablet, VIEWPORTS.mobile]) {
        await b.page.setViewportSize(viewport);
        await expect(pill).toBeVisible();
        // Scrolled up a little too, so a message line sits right at the top of the list.
        for (const scrollBy of [0, -130]) {
          await b.page
            .locator('.str-chat__main-panel .str-chat__message-list')
            .evaluate((list, by) => list.scrollBy(0, by), scrollBy);
          const where = `${scheme} ${viewport.width}px, scrolled ${scrollBy}`;
          const seen = await pillsOverText(b.page);
          expect(seen.pills, where).toBeGreaterThan(0);
          expect(seen.texts, where).toBeGreaterThan(3);
          expect(seen.overlaps, where).toEqual([]);
        }
        await snap(b.page, `chat-pills-${scheme}`);
      }
    }

    // At the end of the list (no "jump to latest" button over the messages), every message shown whole, from the
    // bottom-most one to the top-most, whose menu opens below it, towards the composer.
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.mobile]) {
      await b.page.setViewportSize(viewport);
      await b.page
        .locator('.str-chat__main-panel .str-chat__message-list')
        .evaluate((list) => list.scrollTo(0, list.scrollHeight));
      await expect(b.page.getByTestId('scroll-to-latest-message-button')).toHaveCount(0);
      const wholeLines = await settledWholeLines(b.page);
      expect(wholeLines.length, `${viewport.width}px`).toBeGreaterThan(2);
      for (const line of wholeLines) {
        const message = channelMessage(b.page, `Câu thứ ${line} `);
        await message.hover();
        await message.getByRole('button', { name: 'Mở menu thao tác với tin nhắn' }).click();
        await expect(b.page.getByRole('menuitem', { name: 'Chặn đạo hữu' })).toBeAttached();
        expect(
          await lastMenuItemIsReachable(b.page),
          `line ${line} at ${viewport.width}px`,
        ).toEqual({
          label: 'Chặn đạo hữu',
          reachable: true,
        });
        await b.page.keyboard.press('Escape');
        await expect(b.page.getByRole('menuitem')).toHaveCount(0);
      }
    }
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
