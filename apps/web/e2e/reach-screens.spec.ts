import { expect, type Page, test } from '@playwright/test';
import { account, post, register } from './helpers';

/**
 * The renewals page (a list and the form showing its errors) and the Settings sections for push
 * and the calendar at 360 px and desktop, light and dark. SHOTS=dir saves them to look at.
 */
const SHOTS = process.env.SHOTS;

const day = (n: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

async function shoot(page: Page, name: string, target?: ReturnType<Page['locator']>) {
  for (const dark of [false, true]) {
    await page.evaluate((d) => {
      localStorage.setItem('darkMode', d ? 'true' : 'false');
      document.body.classList.toggle('dark-mode', d);
    }, dark);
    for (const width of [360, 1366]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      // Nothing sticks out sideways at either width.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
      if (!SHOTS) continue;
      const path = `${SHOTS}/${name}-${width}-${dark ? 'dark' : 'light'}.png`;
      if (target) await target.screenshot({ path });
      else await page.screenshot({ path, fullPage: true });
    }
  }
}

test('renewals and the reach settings look right at 360 px and desktop, light and dark', async ({ page }) => {
  test.setTimeout(120_000);
  const a = account('renew');
  await register(page, a);
  await post(page, '/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2012,
    fuelType: 'PETROL',
    registrationNumber: 'B-77-RNW',
    engineSize: 1.4,
    odometer: 150_000,
    aiEvaluationConsent: false,
  });
  const [car] = await (await page.request.get('/api/vehicles')).json();
  const id = car.id as number;
  // Romania: the RO presets.
  const token = await page.evaluate(() => localStorage.getItem('token') ?? '');
  const me = await (await page.request.get('/api/users/me')).json();
  const put = await page.request.put('/api/users/me', {
    data: { username: me.username, email: me.email, language: 'en', country: 'RO' },
    headers: { 'X-CSRF-Token': token },
  });
  expect(put.ok()).toBe(true);
  for (const r of [
    {
      type: 'RCA',
      validFrom: day(-340),
      validUntil: day(25),
      price: 310,
      note: 'Allianz-Țiriac, policy RO/25/123456',
    },
    { type: 'ITP', validFrom: day(-370), validUntil: day(-5) },
    { type: 'ROVINIETA', validFrom: day(-20), validUntil: day(345), price: 28 },
  ])
    await post(page, `/api/vehicles/${id}/renewals`, r);

  await page.goto(`/renewals/${id}`);
  await expect(page.getByRole('heading', { name: 'Renewals of Dacia Logan' })).toBeVisible();
  await expect(page.getByText('expired')).toBeVisible();
  await shoot(page, 'renewals');

  await page.getByRole('button', { name: 'Add renewal' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Price (€)').fill('abc');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Required.')).toBeVisible();
  await expect(dialog.getByText('Enter an amount of 0 or more.')).toBeVisible();
  await shoot(page, 'renewal-form-errors');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/settings');
  const push = page.locator('section.settings__section').filter({
    has: page.getByRole('heading', { name: 'Push notifications' }),
  });
  const calendar = page.locator('section.settings__section').filter({
    has: page.getByRole('heading', { name: 'Calendar' }),
  });
  await expect(push.getByRole('button', { name: 'Send a test notification' })).toBeVisible();
  await expect(calendar.getByLabel('Calendar link')).toHaveValue(/\/api\/calendar\/.+\.ics$/);
  await shoot(page, 'settings-push', push);
  await shoot(page, 'settings-calendar', calendar);
});
