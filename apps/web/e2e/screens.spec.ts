import { expect, test } from '@playwright/test';
import { ADMIN, VIEWPORTS, newCultivator, signInViaApi, signUpViaApi, snap } from './support';

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`main screens at ${viewport.width}×${viewport.height} (${name})`, () => {
    test.use({ viewport });

    test('home, realm table, profile and admin for the signed-in admin', async ({
      page,
      baseURL,
    }) => {
      await signInViaApi(page.request, baseURL as string, ADMIN);

      await page.goto('/');
      await expect(page.getByRole('heading', { name: /^Chào đạo hữu/ })).toBeVisible();
      await expect(page.locator('[data-slot="balance-value"]')).toHaveText(/₫$/);
      await snap(page, 'home-signed-in');

      await page.goto('/canh-gioi');
      const current = page.locator('tr[aria-current="true"]');
      await expect(current).toHaveCount(1);
      await expect(current).toHaveAttribute('data-current', 'true');
      await expect(page.getByRole('row', { name: /Tiên Nhân/ })).toContainText(
        'trên 500.000.000.000',
      );
      await expect(page.getByRole('row', { name: /Tu vi không hợp lệ/ })).toContainText('dưới 0');
      await current.scrollIntoViewIfNeeded();
      await snap(page, 'realms-signed-in');

      await page.goto('/ho-so');
      await expect(page.getByRole('heading', { name: 'Hồ sơ', level: 1 })).toBeVisible();
      await expect(page.getByText(ADMIN.email).first()).toBeVisible();
      await snap(page, 'profile');

      await page.goto('/quan-tri/nguoi-dung');
      await expect(page.getByRole('table')).toBeVisible();
      await snap(page, 'admin-users');
    });

    test('a Vietnamese 404 page for unknown routes', async ({ page }) => {
      await page.goto('/khong-co-trang-nay');
      await expect(page.getByRole('heading', { name: 'Không tìm thấy trang' })).toBeVisible();
      await expect(page).toHaveTitle('Không tìm thấy trang · Đạo Hữu');
      await snap(page, 'not-found');
    });
  });
}

test('edits the đạo hiệu on the profile page', async ({ page, baseURL }) => {
  await page.setViewportSize(VIEWPORTS.desktop);
  const who = newCultivator('Thanh');
  await signUpViaApi(page.request, baseURL as string, who);
  await page.goto('/ho-so');

  const form = page.getByRole('form', { name: 'Đổi đạo hiệu' });
  await form.getByLabel('Đạo hiệu').fill('X');
  await form.getByRole('button', { name: 'Lưu' }).click();
  await expect(form.getByRole('alert')).toHaveText('Đạo hiệu phải có từ 2 đến 32 ký tự.');

  const renamed = `${who.daoHieu} Kiếm`;
  await form.getByLabel('Đạo hiệu').fill(renamed);
  await form.getByRole('button', { name: 'Lưu' }).click();
  await expect(page.getByText('Đã cập nhật đạo hiệu.')).toBeVisible();
  // The sidebar account shows the new name without a reload.
  await expect(page.getByRole('button', { name: `Tài khoản: ${renamed}` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: renamed, level: 2 })).toBeVisible();
});

test('asked for reduced motion, a spinner and a skeleton play once and rest instead of cycling', async ({
  browser,
  baseURL,
}) => {
  for (const reducedMotion of ['reduce', 'no-preference'] as const) {
    const context = await browser.newContext({ baseURL, locale: 'vi-VN', reducedMotion });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The app's own classes for a spinner and a skeleton, on a probe element in the loaded stylesheet.
    const iterations = await page.evaluate(() =>
      ['animate-spin', 'animate-pulse'].map((className) => {
        const probe = document.createElement('div');
        probe.className = className;
        document.body.append(probe);
        const count = getComputedStyle(probe).animationIterationCount;
        probe.remove();
        return count;
      }),
    );
    expect(iterations).toEqual(reducedMotion === 'reduce' ? ['1', '1'] : ['infinite', 'infinite']);
    await context.close();
  }
});
