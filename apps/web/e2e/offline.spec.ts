import { expect, type Page, test } from '@playwright/test';
import { account, register } from './helpers';

/** A JSON call to the API as the logged-in page (cookies + the CSRF token the app keeps). */
async function call<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        credentials: 'include',
        headers: {
          'Content-Type': 'application/json',
          'X-CSRF-Token': localStorage.getItem('token') ?? '',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return (text ? JSON.parse(text) : undefined) as T;
    },
    { method, path, body },
  );
}

interface Vehicle {
  id: number;
  model: string;
  version: number;
}

async function setUp(page: Page, prefix: string) {
  const a = account(prefix);
  await register(page, a);
  const car = await call<Vehicle>(page, 'POST', '/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2019,
    fuelType: 'DIESEL',
    registrationNumber: 'B-1-OFF',
    engineSize: 1.5,
    odometer: 100000,
    aiEvaluationConsent: false,
  });
  // Online visits fill the caches: the list, and the fuel screen of the car.
  await page.goto('/vehicles');
  await expect(page.getByRole('article', { name: 'Dacia Logan' })).toBeVisible();
  await page.goto(`/fuel/${car.id}`);
  await expect(page.getByText('No fuel records for this period.')).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  return car;
}

async function addFuel(page: Page, litres: string, total: string) {
  await page.getByRole('button', { name: 'Add Manually' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Fuel Entry' });
  await dialog.getByLabel('Litres').fill(litres);
  await dialog.getByLabel('Total paid (€)').fill(total);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

/** A record: a card, or (from 1024 px) a table row. */
const RECORD = '.record-card, .table--records tbody tr';

test('offline: reload shows the cached list; a fuel entry and a vehicle edit sync exactly once', async ({
  page,
  context,
}) => {
  const car = await setUp(page, 'off');

  await context.setOffline(true);
  await page.goto('/vehicles');
  await expect(page.getByRole('article', { name: 'Dacia Logan' })).toBeVisible();
  await expect(page.getByText('Showing saved data (offline)')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'You are offline' }).first()).toBeVisible();

  // Edit the vehicle offline: shown at once, marked, counted in the offline notice.
  await page.getByRole('button', { name: 'Edit Dacia Logan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit vehicle' });
  await dialog.getByLabel('Model').fill('Sandero');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const sandero = page.getByRole('article', { name: 'Dacia Sandero' });
  await expect(sandero).toContainText('Waiting to sync');
  await expect(page.getByText('1 change waiting to sync').first()).toBeVisible();

  // Add a fuel entry offline on the car's fuel screen.
  await sandero.getByRole('link', { name: 'Fuel' }).click();
  await addFuel(page, '40', '280');
  const entry = page.locator(RECORD);
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('Waiting to sync');
  await expect(page.getByText('2 changes waiting to sync').first()).toBeVisible();

  // Back online: the queue is sent, the marks go away, the server has exactly those changes.
  await context.setOffline(false);
  await expect(page.getByText(/waiting to sync|Syncing/)).toHaveCount(0, { timeout: 20_000 });
  const fuel = await call<{ liters: number; fuelPrice: number }[]>(
    page,
    'GET',
    `/api/fuel-consumptions/vehicle/${car.id}`,
  );
  expect(fuel.map((f) => [f.liters, f.fuelPrice])).toEqual([[40, 280]]);
  const now = await call<Vehicle>(page, 'GET', `/api/vehicles/${car.id}`);
  expect(now.model).toBe('Sandero');
  expect(now.version).toBe(car.version + 1);
});

test('offline: a queued create whose answer is lost is not doubled', async ({ page, context }) => {
  const car = await setUp(page, 'lost');

  await context.setOffline(true);
  await addFuel(page, '30', '210');
  await expect(page.locator(RECORD)).toContainText('Waiting to sync');

  // The first POST reaches the server, but its answer never reaches the page.
  let aborted = 0;
  await page.route('**/api/fuel-consumptions', async (route) => {
    if (route.request().method() === 'POST' && aborted === 0) {
      aborted++;
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });
  await context.setOffline(false);
  await expect(page.getByText(/waiting to sync|Syncing/)).toHaveCount(0, { timeout: 20_000 });
  expect(aborted).toBe(1);
  const fuel = await call<unknown[]>(page, 'GET', `/api/fuel-consumptions/vehicle/${car.id}`);
  expect(fuel).toHaveLength(1);
  await expect(page.locator(RECORD)).toHaveCount(1);
});
