import { expect, type Page, test } from '@playwright/test';
import { DEMO_PORT } from '../playwright.config';
import { account, login, post, register } from './helpers';

/**
 * Cost analytics and the notifications bell against the real server: a fresh user's vehicle with
 * records over several months (created through the API with the session cookie and CSRF token), and
 * the demo data, whose reminders the server's scan at start turned into notifications.
 */

const iso = (d: Date) => d.toISOString().slice(0, 10);
const daysFromToday = (n: number) => {
  const d = new Date();
  d.setUTCHours(12, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + n);
  return iso(d);
};

/** A vehicle with fuel, expenses, a revision and an insurance ending in 5 days. */
async function seedVehicle(page: Page) {
  const vehicle = await post(page, '/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2019,
    fuelType: 'PETROL',
    registrationNumber: `B-${Date.now().toString().slice(-5)}`,
    engineSize: 1.0,
    odometer: 80_000,
    aiEvaluationConsent: true,
  });
  const vehicleId = vehicle.id as number;
  const fuel = [
    { date: daysFromToday(-95), liters: 40, fuelPrice: 280, odometer: 80_100 },
    { date: daysFromToday(-62), liters: 38, fuelPrice: 270.5, odometer: 80_700 },
    { date: daysFromToday(-31), liters: 41, fuelPrice: 295.25, odometer: 81_300 },
    { date: daysFromToday(-1), liters: 39, fuelPrice: 284, odometer: 81_900 },
  ];
  for (const f of fuel) await post(page, '/api/fuel-consumptions', { vehicleId, fuelType: 'PETROL', ...f });
  await post(page, '/api/expenses', {
    vehicleId,
    date: daysFromToday(-60),
    expenseType: 'Repair',
    amount: 450,
    description: 'Brake pads',
  });
  await post(page, '/api/revision', {
    vehicleId,
    date: daysFromToday(-90),
    km: 80_050,
    price: 320,
    description: 'Oil service',
  });
  await post(page, '/api/insurance', {
    vehicleId,
    provider: 'Allianz',
    policyNumber: 'RCA-1',
    coverageType: 'RCA',
    startDate: daysFromToday(-360),
    endDate: daysFromToday(5),
    price: 310,
    reminderEnabled: true,
  });
  return vehicleId;
}

/** True when the canvas has something drawn (its PNG differs from a blank one of the same size). */
async function canvasHasDrawing(page: Page, name: string) {
  return page.getByRole('img', { name, exact: true }).evaluate((el) => {
    const canvas = el as HTMLCanvasElement;
    const blank = document.createElement('canvas');
    blank.width = canvas.width;
    blank.height = canvas.height;
    return canvas.width > 0 && canvas.height > 0 && canvas.toDataURL() !== blank.toDataURL();
  });
}

test('vehicle and user analytics draw their charts', async ({ page }) => {
  await register(page, account('an'));
  const vehicleId = await seedVehicle(page);

  await test.step('vehicle analytics renders totals, charts and month cards', async () => {
    await page.goto(`/analytics/${vehicleId}`);
    await expect(page.getByRole('heading', { name: 'Analytics for Dacia Logan' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'All-time totals' })).toBeVisible();
    // The vehicle has AI consent: the AI summary button is there (its flow is in ai.spec.ts).
    await expect(page.getByRole('button', { name: 'AI summary' })).toBeEnabled();
    for (const name of ['Yearly costs by category', 'Total cost per month']) {
      await expect(page.getByRole('img', { name, exact: true })).toBeVisible();
      await expect.poll(() => canvasHasDrawing(page, name)).toBe(true);
    }
    const cards = page.getByRole('list', { name: 'Months' }).getByRole('heading', { level: 3 });
    await expect(cards.first()).toBeVisible();
    const labels = await cards.allTextContents();
    expect(labels.length).toBeGreaterThanOrEqual(3);
    const first = labels[0] as string;
    await expect(page.getByRole('img', { name: `Cost split of ${first}` })).toBeVisible();
    await expect.poll(() => canvasHasDrawing(page, `Cost split of ${first}`)).toBe(true);

    await page.getByRole('searchbox', { name: 'Search month' }).fill(first.toLowerCase());
    await expect(cards).toHaveText([first]);
  });

  await test.step('user analytics draws the monthly bar chart', async () => {
    await page.goto('/analytics/user');
    await expect(page.getByRole('combobox', { name: 'Vehicle' })).toBeVisible();
    await expect.poll(() => canvasHasDrawing(page, 'Monthly cost per vehicle')).toBe(true);
  });
});

test.describe('on the demo data (npm run seed:demo; the reminder scan ran at server start)', () => {
  test.use({ baseURL: `http://127.0.0.1:${DEMO_PORT}` });

  test('seeded history charts render, the bell shows a reminder, Mark all as read clears the count', async ({
    page,
  }) => {
    await login(page, { username: 'john', password: 'evdra-demo-1' });
    await expect(page.getByText('Logged in as john')).toBeVisible();

    await test.step('three years of records draw the vehicle charts', async () => {
      await page.goto('/analytics');
      await page
        .getByRole('link', { name: /^Analytics for / })
        .first()
        .click();
      await expect(page).toHaveURL(/\/analytics\/\d+$/);
      await expect.poll(() => canvasHasDrawing(page, 'Total cost per month')).toBe(true);
    });

    const bell = page.getByRole('button', { name: 'Notifications' });
    await test.step('the bell counts the seeded reminders; Mark all as read clears the count', async () => {
      await expect(bell.getByTestId('notification-count')).toHaveText(/^[1-9]\d*$/);
      await bell.click();
      const panel = page.getByRole('region', { name: 'Notifications' });
      await expect(panel.getByRole('button', { name: /Insurance ends in 7 days/ })).toBeVisible();
      await panel.getByRole('button', { name: 'Mark all as read' }).click();
      await expect(bell.getByTestId('notification-count')).toHaveCount(0);
      await page.keyboard.press('Escape');
      await expect(panel).toBeHidden();
    });

    await test.step("a click on the reminder opens that vehicle's insurance page", async () => {
      await bell.click();
      await page
        .getByRole('region', { name: 'Notifications' })
        .getByRole('button', { name: /Insurance ends in 7 days/ })
        .click();
      await expect(page).toHaveURL(/\/insurance\/\d+$/);
      await expect(page.getByRole('heading', { name: /^Insurance for / })).toBeVisible();
    });
  });
});
