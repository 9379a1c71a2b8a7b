import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  channelComposer,
  channelMessage,
  closeChatUsers,
  newChatUser,
  openDirectMessage,
  send,
  threadComposer,
  type ChatUser,
} from './chat-support';

// A shares where they are with B in a direct message: once, then live while they move.
test.describe.configure({ mode: 'serial' });

let a: ChatUser;
let b: ChatUser;
const HOAN_KIEM = { latitude: 21.0285, longitude: 105.8542 };
const TAY_HO = { latitude: 21.0583, longitude: 105.8214 };
/** The default tile server (apps/web/src/config/map.ts); no test reaches it, every tile request is answered here. */
const TILES = 'https://tile.openstreetmap.org/**';
/** A 1×1 green PNG standing in for a map tile. */
const TILE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function locationCards(page: Page): Locator {
  return page.locator('.str-chat__main-panel [data-testid="location-card"]');
}

async function openShareLocation(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Mở trình chọn tệp đính kèm' }).click();
  await page.locator('.str-chat__attachment-selector-actions-menu__add-location-button').click();
  const position = page.getByTestId('share-location-position');
  await expect(position).toBeVisible();
  return position;
}

test.beforeAll(async ({ browser, baseURL }) => {
  // Two sign-ups, two connections and a new conversation: slow on a loaded machine.
  test.setTimeout(120_000);
  a = await newChatUser(browser, baseURL, 'Du Hành');
  b = await newChatUser(browser, baseURL, 'Bạn Đồng Hành');
  await a.context.grantPermissions(['geolocation']);
  await a.context.setGeolocation(HOAN_KIEM);
  // A's browser gets tiles from a local PNG; B's cannot reach the tile server at all.
  await a.context.route(TILES, (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: TILE_PNG }),
  );
  await b.context.route(TILES, (route) => route.abort('internetdisconnected'));
  await openDirectMessage(a, b, { bOpens: true });
});

test.afterAll(async () => closeChatUsers(a, b));

test('a one-off location shows its coordinates and a map link to both, and a small map where tiles load', async () => {
  const position = await openShareLocation(a.page);
  await expect(position).toHaveText('Vị trí: 21.028500, 105.854200');
  await a.page.getByRole('button', { name: 'Chia sẻ vị trí', exact: true }).click();

  for (const page of [a.page, b.page]) {
    const card = locationCards(page).last();
    await expect(card.getByTestId('location-coordinates')).toHaveText(
      'Vị trí: 21.028500, 105.854200',
    );
    await expect(card.getByTestId('location-status')).toHaveText('Vị trí hiện tại');
    await expect(card.getByRole('link', { name: 'Mở vị trí trên bản đồ' })).toHaveAttribute(
      'href',
      'https://www.openstreetmap.org/?mlat=21.028500&mlon=105.854200#map=16/21.028500/105.854200',
    );
  }
  // A's tiles load: a map of tile images with the point in the middle, credited to OpenStreetMap.
  const map = locationCards(a.page).last().getByRole('img', { name: 'Bản đồ vị trí' });
  await expect(map).toBeVisible();
  await expect(map.locator('img').first()).toHaveAttribute(
    'src',
    /^https:\/\/tile\.openstreetmap\.org\/15\/\d+\/\d+\.png$/,
  );
  await expect
    .poll(() =>
      map
        .locator('img')
        .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth)),
    )
    .toEqual(expect.arrayContaining([1]));
  await expect(map.getByRole('link', { name: '© OpenStreetMap' })).toBeVisible();
  // B's tiles cannot load: the map steps aside and the coordinates stand alone, with no broken image left.
  const bCard = locationCards(b.page).last();
  await expect(bCard.getByTestId('location-map')).toHaveCount(0);
  await expect(bCard.locator('img, iframe')).toHaveCount(0);
  await expect(bCard.getByTestId('location-coordinates')).toBeVisible();
});

test('a live location shows the time left and follows the sharer', async () => {
  await openShareLocation(a.page);
  const live = a.page.getByRole('switch', { name: 'Chia sẻ vị trí trực tiếp trong' });
  await live.click();
  await expect(live).toBeChecked();
  await a.page.getByRole('button', { name: 'Chia sẻ vị trí', exact: true }).click();

  const bCard = locationCards(b.page).last();
  await expect(bCard.getByTestId('location-status')).toContainText('Vị trí trực tiếp · còn');
  await expect(
    locationCards(a.page).last().getByRole('button', { name: 'Dừng chia sẻ' }),
  ).toBeVisible();

  await a.context.setGeolocation(TAY_HO);
  await expect(bCard.getByTestId('location-coordinates')).toHaveText(
    'Vị trí: 21.058300, 105.821400',
    {
      timeout: 15_000,
    },
  );

  await locationCards(a.page).last().getByRole('button', { name: 'Dừng chia sẻ' }).click();
  await expect(bCard.getByTestId('location-status')).toHaveText('Đã kết thúc chia sẻ vị trí');
});

test('a thread offers no location sharing (nor polls)', async () => {
  const text = `Chuỗi không chia sẻ vị trí ${Date.now().toString(36)}`;
  await send(channelComposer(a.page), text);
  const message = channelMessage(a.page, text);
  await expect(message).toBeVisible();
  await message.hover();
  await message.getByRole('button', { name: 'Mở chuỗi trả lời' }).click();
  await expect(threadComposer(a.page)).toBeVisible();

  // With files as its only action, the thread's attachment button opens the file picker straight away: there is no
  // menu that could offer a location or a poll.
  const thread = a.page.locator('.str-chat__thread-container');
  const picker = a.page.waitForEvent('filechooser');
  await thread.getByRole('button', { name: 'Mở trình chọn tệp đính kèm' }).click();
  await picker;
  await expect(
    a.page.locator('.str-chat__attachment-selector-actions-menu__add-location-button'),
  ).toHaveCount(0);
  await expect(
    a.page.locator('.str-chat__attachment-selector-actions-menu__create-poll-button'),
  ).toHaveCount(0);
});
