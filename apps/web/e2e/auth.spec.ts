import { expect, test, type Page } from '@playwright/test';
import { VIEWPORTS, newCultivator, registerElsewhere, sidebarFooter, snap } from './support';

test.use({ viewport: VIEWPORTS.desktop });

function loginDialog(page: Page) {
  return page.getByRole('dialog', { name: /Chào mừng trở lại|Gia nhập Đạo Hữu/ });
}

test.describe('login dialog', () => {
  test('opens from the sidebar footer button, traps focus, closes on Escape and returns focus', async ({
    page,
  }) => {
    await page.goto('/canh-gioi');
    const footerButton = sidebarFooter(page).getByRole('button', { name: 'Đăng nhập' });
    await footerButton.click();

    const dialog = loginDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAccessibleDescription(/hành trình tu luyện/);
    await expect(dialog.getByRole('button', { name: 'Đóng' })).toBeVisible();
    await snap(page, 'login-dialog');

    // Focus stays inside the modal however far the user tabs.
    for (let step = 0; step < 8; step += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(
        true,
      );
    }

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(footerButton).toBeFocused();
  });

  test('fetches its code only when a sign-in button is reached for, then opens on the click', async ({
    page,
  }) => {
    const dialogCode: string[] = [];
    page.on('request', (request) => {
      if (/\/login-dialog-[\w-]+\.js$/.test(new URL(request.url()).pathname))
        dialogCode.push(request.url());
    });
    await page.goto('/');
    const cta = page.getByRole('button', { name: 'Đăng nhập để bắt đầu tu luyện' });
    await expect(cta).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(dialogCode).toEqual([]);
    await cta.hover();
    await expect.poll(() => dialogCode.length).toBe(1);
    await cta.click();
    await expect(loginDialog(page)).toBeVisible();
    expect(dialogCode).toHaveLength(1);
  });

  test('opens from the landing call to action', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Đăng nhập để bắt đầu tu luyện' }).click();
    await expect(loginDialog(page)).toBeVisible();
    await loginDialog(page).getByRole('button', { name: 'Đóng' }).click();
    await expect(loginDialog(page)).toHaveCount(0);
  });

  test('opens from ?dang-nhap=1 on any screen and drops the parameter when closed', async ({
    page,
  }) => {
    await page.goto('/canh-gioi?dang-nhap=1');
    await expect(loginDialog(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(loginDialog(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/canh-gioi$/);
  });

  test('opens from the profile page when signed out', async ({ page }) => {
    await page.goto('/ho-so');
    await expect(page.getByRole('heading', { name: 'Đăng nhập để xem hồ sơ' })).toBeVisible();
    await snap(page, 'profile-guest');
    await page.getByRole('main').getByRole('button', { name: 'Đăng nhập' }).click();
    await expect(loginDialog(page)).toBeVisible();
  });
});

test('signs up, shows the cultivator everywhere, survives a reload and signs out', async ({
  page,
}) => {
  const who = newCultivator('Lam');
  await page.goto('/');
  await sidebarFooter(page).getByRole('button', { name: 'Đăng nhập' }).click();
  const dialog = loginDialog(page);
  await dialog.getByRole('tab', { name: 'Đăng ký' }).click();
  await dialog.getByLabel('Đạo hiệu').fill(who.daoHieu);
  await dialog.getByLabel('Email').fill(who.email);
  await dialog.getByLabel('Mật khẩu').fill(who.password);
  await dialog.getByRole('button', { name: 'Đăng ký' }).click();

  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(`Chào mừng đạo hữu ${who.daoHieu}`)).toBeVisible();
  // Without a reload: the sidebar footer and the home screen both know the user now.
  const account = sidebarFooter(page).getByRole('button', { name: `Tài khoản: ${who.daoHieu}` });
  await expect(account).toBeVisible();
  await expect(page.getByRole('heading', { name: `Chào đạo hữu ${who.daoHieu}` })).toBeVisible();
  await expect(page.locator('[data-slot="tu-vi-card"]')).toContainText('Luyện Khí Tầng 1');

  await page.reload();
  await expect(account).toBeVisible();
  await expect(page.getByRole('heading', { name: `Chào đạo hữu ${who.daoHieu}` })).toBeVisible();

  await account.click();
  const menu = page.getByRole('menu');
  await expect(menu).toContainText(who.daoHieu);
  await expect(menu).toContainText('Luyện Khí Tầng 1');
  await expect(menu.getByRole('menuitemradio', { name: 'Theo hệ thống' })).toBeChecked();
  await snap(page, 'account-menu');
  await menu.getByRole('menuitem', { name: 'Đăng xuất' }).click();

  await expect(sidebarFooter(page).getByRole('button', { name: 'Đăng nhập' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Đăng nhập để bắt đầu tu luyện' })).toBeVisible();
  await page.reload();
  await expect(sidebarFooter(page).getByRole('button', { name: 'Đăng nhập' })).toBeVisible();
});

test('signs in through the dialog and tells a wrong password in Vietnamese', async ({
  page,
  baseURL,
}) => {
  const who = newCultivator('Mặc');
  await registerElsewhere(baseURL as string, who);

  await page.goto('/?dang-nhap=1');
  const dialog = loginDialog(page);
  await dialog.getByLabel('Email').fill(who.email);
  await dialog.getByLabel('Mật khẩu').fill('khong-dung-dau');
  await dialog.getByRole('button', { name: 'Đăng nhập' }).click();

  await expect(dialog.getByRole('alert')).toHaveText('Email hoặc mật khẩu không đúng.');
  await expect(dialog.getByLabel('Email')).toHaveValue(who.email);
  await expect(dialog.getByLabel('Mật khẩu')).toHaveValue('');
  await snap(page, 'login-wrong-password');

  await dialog.getByLabel('Mật khẩu').fill(who.password);
  await dialog.getByRole('button', { name: 'Đăng nhập' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(`Chào mừng đạo hữu ${who.daoHieu}`)).toBeVisible();
});

test('switches the theme and remembers it across reloads', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await expect(page.locator('html')).not.toHaveClass(/dark/);

  await page.getByRole('button', { name: 'Giao diện' }).click();
  await page.getByRole('menuitemradio', { name: 'Tối' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);

  await page.reload();
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

  await page.getByRole('button', { name: 'Giao diện' }).click();
  await page.getByRole('menuitemradio', { name: 'Theo hệ thống' }).click();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/dark/);
});
