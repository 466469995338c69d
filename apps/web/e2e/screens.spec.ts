import { expect, type Page, test } from '@playwright/test';
import { DEMO_PORT } from '../playwright.config';
import { seriousViolations } from './axe';
import { login } from './helpers';

/*
 * Screenshots for a person to look at (nothing is compared): with SCREENSHOTS=<dir>, every screen,
 * logged out, as a user and as an admin, light and dark, on the demo data, photographed at 360 px
 * and 1366 px, each also checked by axe. Without it the spec is skipped: screens-a11y.spec.ts runs
 * the same axe checks over every route in every combination, faster.
 */
const SHOTS = process.env.SCREENSHOTS;

test.use({ baseURL: `http://127.0.0.1:${DEMO_PORT}` });
// Skipped without SCREENSHOTS on purpose: a tool for people, its axe checks are screens-a11y.spec's.
test.skip(!SHOTS, 'screenshots only: SCREENSHOTS=<dir> npx playwright test screens.spec');
test.setTimeout(600_000);

const PASSWORD = 'evdra-demo-1';

async function check(page: Page, name: string, mode: 'light' | 'dark') {
  await expect(page.locator('.loading-bar, .page-loading')).toHaveCount(0, { timeout: 15_000 });
  expect(await seriousViolations(page), `${name} (${mode})`).toEqual([]);
  for (const width of [360, 1366]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    await page.screenshot({
      path: `${SHOTS}/${name.replace(/\W+/g, '_')}-${width}-${mode}.png`,
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

async function visit(page: Page, path: string, name: string, mode: 'light' | 'dark') {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await check(page, name, mode);
}

for (const mode of ['light', 'dark'] as const) {
  test.describe(`${mode} mode`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript(
        (dark) => localStorage.setItem('darkMode', dark ? 'true' : 'false'),
        mode === 'dark',
      );
    });

    test('logged out: home, login, register, forgot and reset password, GDPR, not found', async ({
      page,
    }) => {
      for (const [path, name] of [
        ['/', 'home-guest'],
        ['/login', 'login'],
        ['/register', 'register'],
        ['/forgot-password', 'forgot-password'],
        ['/reset-password?token=0123456789abcdef', 'reset-password'],
        ['/gdpr', 'gdpr'],
        ['/no-such-page', 'not-found'],
      ])
        await visit(page, path as string, name as string, mode);
      // A form showing its errors.
      await page.goto('/register');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByText('Username is required.')).toBeVisible();
      await check(page, 'register-errors', mode);
    });

    test('a user: every screen of their garage, and the add-vehicle dialog', async ({ page }) => {
      await login(page, { username: 'john', password: PASSWORD });
      await expect(page.getByText('Logged in as john')).toBeVisible();
      await visit(page, '/vehicles', 'vehicles', mode);
      const href = await page.locator('a[href^="/insurance/"]').first().getAttribute('href');
      const id = href?.split('/').pop();
      for (const [path, name] of [
        ['/', 'home-user'],
        [`/insurance/${id}`, 'insurance'],
        [`/expenses/${id}`, 'expenses'],
        [`/fuel/${id}`, 'fuel'],
        [`/revision/${id}`, 'revision'],
        [`/analytics/${id}`, 'analytics-vehicle'],
        ['/insurance', 'insurance-all'],
        ['/expenses', 'expenses-all'],
        ['/fuel', 'fuel-all'],
        ['/revision', 'revision-all'],
        ['/analytics', 'analytics-index'],
        ['/analytics/user', 'analytics-user'],
        ['/settings', 'settings'],
        ['/marketplace', 'marketplace'],
        ['/ai-chat', 'ai-chat'],
      ])
        await visit(page, path as string, name as string, mode);
      await page.goto('/vehicles');
      await page.getByRole('button', { name: 'Add new' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add vehicle' });
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByText('Make is required.')).toBeVisible();
      await check(page, 'vehicle-form-errors', mode);
    });

    test('an admin: users, global analytics and every vehicle', async ({ page }) => {
      await login(page, { username: 'demo_admin', password: PASSWORD });
      await expect(page.getByText('Logged in as demo_admin')).toBeVisible();
      for (const [path, name] of [
        ['/admin/users', 'admin-users'],
        ['/analytics/admin', 'analytics-admin'],
        ['/vehicles', 'vehicles-admin'],
        ['/fuel', 'fuel-all-admin'],
      ])
        await visit(page, path as string, name as string, mode);
    });
  });
}
