import { REALMS, realmRowName } from '@daohuu/domain';
import { expect, test, type Page } from '@playwright/test';
import en from '../src/i18n/locales/en.json' with { type: 'json' };
import { ADMIN, VIEWPORTS, signInViaApi, snap } from './support';

// The English switch of the account menu turns every screen of the app English (src/i18n), and the choice survives
// a reload. Screens load their code on demand, slowly on a loaded machine.
test.slow();
const SCREEN = { timeout: 30_000 };

/**
 * Words that stay Vietnamese in English on purpose: realm names (proper names, packages/domain), the app's and the
 * main square's names, and the vi-VN amount words that tu vi and VND keep in both languages.
 */
const KEPT_WORDS = [
  ...new Set(
    REALMS.flatMap((row) => [realmRowName(row, 'full'), realmRowName(row, 'short'), row.major]),
  ),
  'Sơ Kỳ',
  'Sơ',
  'Đạo Hữu',
  'Quảng Trường',
  'vạn',
  'triệu',
  'tỷ',
].sort((a, b) => b.length - a.length);

/**
 * The words with Vietnamese letters left in the screen's own content (the shell's sidebar and header are another
 * part's, left out here), once user data and the kept words are taken away.
 */
async function vietnameseLeft(
  page: Page,
  userData: string[],
  skip: string[] = [],
): Promise<string[]> {
  const text = await page.evaluate((selectors) => {
    const main = document.querySelector('main')?.cloneNode(true) as HTMLElement | undefined;
    if (!main) return '';
    for (const element of main.querySelectorAll(['header', ...selectors].join(','))) {
      element.remove();
    }
    // innerText of a detached clone ignores layout; textContent with the block boundaries kept is enough here.
    return main.textContent ?? '';
  }, skip);
  let rest = text;
  for (const word of [...userData, ...KEPT_WORDS]) rest = rest.split(word).join(' ');
  return rest.split(/\s+/).filter((word) => /(?=\P{ASCII})\p{L}/u.test(word));
}

test('the English switch turns home, realm table, profile and admin screens English, and it survives a reload', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, locale: 'vi-VN' });
  const page = await context.newPage();
  try {
    await signInViaApi(context.request, baseURL as string, ADMIN);
    await page.goto(`${baseURL}/`);
    const account = page.getByRole('button', { name: /^Tài khoản: / });
    await expect(account).toBeVisible(SCREEN);
    const daoHieu = ((await account.getAttribute('aria-label')) ?? '').replace(/^Tài khoản: /, '');

    await account.click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await page.keyboard.press('Escape');

    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(en.dashboard.greeting);
    await expect(page.getByText(en.dashboard.pathTitle)).toBeVisible();
    await expect(page.getByRole('button', { name: `Account: ${daoHieu}` })).toBeVisible();
    expect(await vietnameseLeft(page, [daoHieu])).toEqual([]);
    await snap(page, 'home-english');

    await page.goto(`${baseURL}/canh-gioi`);
    await expect(page.getByRole('heading', { name: en.realms.title, level: 1 })).toBeVisible(
      SCREEN,
    );
    await expect(page.getByRole('columnheader', { name: en.realms.boundColumn })).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(en.cultivation.invalid) })).toContainText(
      en.realms.belowZero,
    );
    expect(await vietnameseLeft(page, [daoHieu])).toEqual([]);
    await snap(page, 'realms-english');

    await page.goto(`${baseURL}/ho-so`);
    await expect(page.getByRole('heading', { name: en.profile.title, level: 1 })).toBeVisible(
      SCREEN,
    );
    for (const title of [
      en.profile.editDaoHieuTitle,
      en.profile.avatarTitle,
      en.profile.settingsTitle,
    ]) {
      await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
    }
    await expect(page.getByText(en.role.admin).first()).toBeVisible();
    // The blocked-users card is the chat's (features/chat/people), from the same catalogue.
    await expect(page.getByRole('region', { name: en.chat.blocked.title })).toBeVisible();
    expect(await vietnameseLeft(page, [daoHieu])).toEqual([]);
    await snap(page, 'profile-english');

    await page.goto(`${baseURL}/quan-tri`);
    const areas = page.getByRole('navigation', { name: en.adminHome.areasLabel });
    await expect(areas).toBeVisible(SCREEN);
    for (const name of [
      en.adminHome.usersTitle,
      en.adminHome.moderationTitle,
      en.adminHome.campaignsTitle,
    ]) {
      await expect(areas.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible();
    }
    expect(await vietnameseLeft(page, [daoHieu])).toEqual([]);

    await page.goto(`${baseURL}/quan-tri/nguoi-dung`);
    await expect(page.getByRole('searchbox', { name: en.admin.users.searchLabel })).toBeVisible(
      SCREEN,
    );
    await expect(page.getByRole('columnheader', { name: en.admin.users.userColumn })).toBeVisible();
    await expect(page.locator('tr[data-user-id]').first()).toBeVisible();
    // Names, emails and realm badges in the rows are the users' own data.
    expect(
      await vietnameseLeft(
        page,
        [daoHieu],
        ['tr[data-user-id] td:first-child', '[data-slot="cultivation"]'],
      ),
    ).toEqual([]);
    await snap(page, 'admin-users-english');

    await page.goto(`${baseURL}/quan-tri/kiem-duyet`);
    await expect(page.getByRole('tab', { name: en.admin.moderation.queueTab })).toBeVisible(SCREEN);
    await expect(page.getByRole('tab', { name: en.admin.moderation.slowModeTab })).toBeVisible();
    // Reported messages quote what people wrote.
    expect(await vietnameseLeft(page, [daoHieu], ['[role="article"]'])).toEqual([]);

    await page.goto(`${baseURL}/quan-tri/chien-dich`);
    await expect(page.getByRole('form', { name: en.admin.campaigns.newCampaign })).toBeVisible(
      SCREEN,
    );
    await expect(page.getByText(en.admin.campaigns.kindAll)).toBeVisible();
    expect(await vietnameseLeft(page, [daoHieu])).toEqual([]);

    // Remembered: a reload comes back in English.
    await page.reload();
    await expect(page.getByRole('form', { name: en.admin.campaigns.newCampaign })).toBeVisible(
      SCREEN,
    );
    await page.goto(`${baseURL}/ho-so`);
    await expect(page.getByRole('heading', { name: en.profile.title, level: 1 })).toBeVisible(
      SCREEN,
    );
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  } finally {
    await context.close();
  }
});

test('a guest who chose English sees the landing page and the login dialog in English', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, locale: 'vi-VN' });
  await context.addInitScript(() => window.localStorage.setItem('chat-language', 'en'));
  const page = await context.newPage();
  try {
    await page.goto(`${baseURL}/`);
    await expect(page.getByRole('heading', { name: en.landing.title, level: 1 })).toBeVisible(
      SCREEN,
    );
    expect(await vietnameseLeft(page, [])).toEqual([]);

    await page.getByRole('button', { name: en.landing.start }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toHaveAccessibleName(en.auth.welcomeBackTitle);
    await dialog.getByRole('button', { name: en.common.signIn, exact: true }).last().click();
    await expect(dialog.getByText(en.auth.emailRequired)).toBeVisible();
    await dialog.getByRole('tab', { name: en.common.signUp }).click();
    await expect(dialog).toHaveAccessibleName(en.auth.joinTitle);
    await expect(dialog.getByLabel(en.common.daoHieu)).toBeVisible();
    await expect(dialog.getByRole('button', { name: en.auth.showPassword })).toBeVisible();
    await snap(page, 'login-english');
  } finally {
    await context.close();
  }
});
