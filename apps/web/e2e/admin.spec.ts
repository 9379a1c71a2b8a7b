import { expect, test } from '@playwright/test';
import {
  ADMIN,
  VIEWPORTS,
  newCultivator,
  registerElsewhere,
  signInViaApi,
  signUpViaApi,
  snap,
} from './support';

const FORBIDDEN = 'Đạo hữu không có quyền truy cập trang này.';

test.use({ viewport: VIEWPORTS.desktop });

test('refuses the admin page to a signed-in user who is not an admin', async ({
  page,
  baseURL,
}) => {
  await signUpViaApi(page.request, baseURL as string, newCultivator('Tử'));
  await page.goto('/quan-tri/nguoi-dung');
  await expect(page.getByText(FORBIDDEN)).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  // And the sidebar does not advertise it.
  await expect(page.getByRole('link', { name: 'Người dùng' })).toHaveCount(0);
  await snap(page, 'admin-forbidden');

  const api = await page.request.get('/api/admin/users');
  expect(api.status()).toBe(403);
});

test('asks a guest to sign in on the admin page', async ({ page }) => {
  await page.goto('/quan-tri/nguoi-dung');
  await expect(page.getByRole('heading', { name: 'Cần đăng nhập' })).toBeVisible();
  await expect(page.getByText(FORBIDDEN)).toHaveCount(0);
});

test('lets the admin set a user’s tu vi: the realm changes for the admin and for the user', async ({
  page,
  baseURL,
  browser,
}) => {
  const who = newCultivator('Bạch');
  await registerElsewhere(baseURL as string, who);

  // The admin signs in through the dialog, straight from the admin page.
  await page.goto('/quan-tri/nguoi-dung?dang-nhap=1');
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(ADMIN.email);
  await dialog.getByLabel('Mật khẩu').fill(ADMIN.password);
  await dialog.getByRole('button', { name: 'Đăng nhập' }).click();
  await expect(dialog).toHaveCount(0);

  await expect(page.getByRole('heading', { name: 'Người dùng', level: 1 })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Tìm người dùng' }).fill(who.email);
  const row = page.getByRole('row', { name: who.daoHieu });
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);
  await expect(row.locator('[data-slot="user-realm"]')).toHaveText('Luyện Khí Tầng 1');

  const tuVi = row.getByLabel(`Tu vi của ${who.daoHieu}`);
  const save = row.getByRole('button', { name: `Lưu thay đổi cho ${who.daoHieu}` });

  // Client-side validation first: nothing reaches the server.
  await tuVi.fill('-5');
  await save.click();
  await expect(page.getByRole('alert')).toHaveText(
    'Tu vi phải là số nguyên từ 0, tối đa 9 triệu tỷ.',
  );
  await snap(page, 'admin-validation');

  await tuVi.fill('123456');
  await save.click();
  await expect(page.getByText(`Đã lưu thay đổi cho ${who.daoHieu}.`)).toBeVisible();
  await expect(row.locator('[data-slot="user-realm"]')).toHaveText('Kim Đan Trung Kỳ');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await snap(page, 'admin-users');

  // The balance too, with the vi-VN grouping the table prints.
  const balance = row.getByLabel(`Số dư của ${who.daoHieu}`);
  await balance.fill('1.234.568');
  await save.click();
  await expect(row).toContainText('1.234.568 ₫');

  // The user sees the new realm on their own home screen.
  const userContext = await browser.newContext({ viewport: VIEWPORTS.desktop, baseURL });
  try {
    const userPage = await userContext.newPage();
    await signInViaApi(userPage.request, baseURL as string, who);
    await userPage.goto('/');
    const card = userPage.locator('[data-slot="tu-vi-card"]');
    await expect(card).toContainText('12,3 vạn');
    await expect(card).toContainText('Kim Đan Trung Kỳ');
    await expect(card).toContainText('còn 76.545 tu vi đến Kim Đan Hậu Kỳ');
    await expect(userPage.locator('[data-slot="balance-value"]')).toHaveText('1.234.568 ₫');
  } finally {
    await userContext.close();
  }
});
