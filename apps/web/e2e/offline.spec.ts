import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { makeInsurance } from '../src/test/fixtures';
import { account, appRunning, register } from './helpers';

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

/** The test car's body; with `version` for an update. */
const carBody = (model: string, version?: number) => ({
  make: 'Dacia',
  model,
  year: 2019,
  fuelType: 'DIESEL',
  registrationNumber: 'B-1-OFF',
  engineSize: 1.5,
  odometer: 100000,
  aiEvaluationConsent: false,
  ...(version === undefined ? {} : { version }),
});

/** How many entries the app keeps in one store of its offline database (0 before it exists). */
function kept(page: Page, store: 'vehicles' | 'records'): Promise<number> {
  return page.evaluate(async (store) => {
    // Never create the database here: the app's own first open must make its stores.
    if (!(await indexedDB.databases()).some((d) => d.name === 'evdra-db')) return 0;
    return new Promise<number>((resolve) => {
      const open = indexedDB.open('evdra-db');
      open.onerror = () => resolve(0);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains(store)) {
          db.close();
          return resolve(0);
        }
        const count = db.transaction(store, 'readonly').objectStore(store).count();
        count.onsuccess = () => resolve(count.result);
        count.onerror = () => resolve(0);
        db.close();
      };
    });
  }, store);
}

async function setUp(page: Page, prefix: string) {
  const a = account(prefix);
  await register(page, a);
  const car = await call<Vehicle>(page, 'POST', '/api/vehicles', carBody('Logan'));
  // Online visits fill the caches: the list, and the fuel screen of the car. (A page the server
  // rendered shows before the app runs: the app keeps its data once it has asked for it.)
  await page.goto('/vehicles');
  await expect(page.getByRole('article', { name: 'Dacia Logan' })).toBeVisible();
  await expect.poll(() => kept(page, 'vehicles')).toBeGreaterThan(0);
  await page.goto(`/fuel/${car.id}`);
  await expect(page.getByText('No fuel records for this period.')).toBeVisible();
  await expect.poll(() => kept(page, 'records')).toBeGreaterThan(0);
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

/**
 * A JSON call to the API as the same user from outside the page (the browser context's cookies, the
 * page's CSRF token): "another device" changing data while the page has no connection.
 */
async function callElsewhere<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('token') ?? '');
  const res = await page.context().request.fetch(path, {
    method,
    headers: { 'X-CSRF-Token': token },
    ...(body === undefined ? {} : { data: body }),
  });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

async function editModelOffline(page: Page, from: string, to: string) {
  await page.getByRole('button', { name: `Edit Dacia ${from}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit vehicle' });
  await dialog.getByLabel('Model').fill(to);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article', { name: `Dacia ${to}` })).toContainText('Waiting to sync');
}

/**
 * Renames the car offline (`from` → `mine`) while another device renames it `theirs` from `version`,
 * then reconnects: the conflict dialog shows both models side by side.
 */
async function conflictingEdit(
  page: Page,
  context: BrowserContext,
  carId: number,
  [from, mine]: [string, string],
  [theirs, version]: [string, number],
) {
  await context.setOffline(true);
  await editModelOffline(page, from, mine);
  const saved = await callElsewhere<Vehicle>(page, 'PUT', `/api/vehicles/${carId}`, carBody(theirs, version));
  await context.setOffline(false);
  const dialog = page.getByRole('dialog', { name: 'Changed elsewhere' });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByRole('row', { name: /Model/ }).getByRole('cell')).toHaveText([mine, theirs]);
  return { dialog, theirs: saved };
}

test('offline: an edit changed elsewhere meanwhile shows both versions; each choice does what it says', async ({
  page,
  context,
}) => {
  const car = await setUp(page, 'conf');
  await page.goto('/vehicles');
  await expect(page.getByRole('article', { name: 'Dacia Logan' })).toBeVisible();

  // 1. Keep mine: offline edit to Sandero while another device renames it Duster.
  const { dialog, theirs: duster } = await conflictingEdit(
    page,
    context,
    car.id,
    ['Logan', 'Sandero'],
    ['Duster', car.version],
  );
  expect(duster.version).toBe(car.version + 1);
  await expect(dialog).toContainText('Vehicle Dacia Sandero was changed on another device');
  await dialog.getByRole('button', { name: 'Keep mine' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/waiting to sync|Syncing/)).toHaveCount(0, { timeout: 20_000 });
  let server = await call<Vehicle>(page, 'GET', `/api/vehicles/${car.id}`);
  expect(server.model).toBe('Sandero');
  expect(server.version).toBe(duster.version + 1);
  await expect(page.getByRole('article', { name: 'Dacia Sandero' })).toBeVisible();

  // 2. Keep current: offline edit to Jogger while another device renames it Spring.
  const second = await conflictingEdit(
    page,
    context,
    car.id,
    ['Sandero', 'Jogger'],
    ['Spring', server.version],
  );
  const spring = second.theirs;
  await second.dialog.getByRole('button', { name: 'Keep current' }).click();
  await expect(second.dialog).toBeHidden();
  // The screen shows theirs, nothing is left to send, and the server kept theirs.
  await expect(page.getByRole('article', { name: 'Dacia Spring' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Dacia Jogger' })).toHaveCount(0);
  await expect(page.getByText(/waiting to sync|Syncing/)).toHaveCount(0);
  server = await call<Vehicle>(page, 'GET', `/api/vehicles/${car.id}`);
  expect(server).toMatchObject({ model: 'Spring', version: spring.version });
});

test('offline: two tabs with queued entries go online at once; each entry is sent exactly once', async ({
  page,
  context,
}) => {
  const car = await setUp(page, 'tabs');
  const other = await context.newPage();
  await other.goto(`/fuel/${car.id}`);
  await expect(other.getByText('No fuel records for this period.')).toBeVisible();
  await appRunning(other);

  await context.setOffline(true);
  await addFuel(page, '41', '281');
  await addFuel(other, '42', '282');
  await addFuel(page, '43', '283');
  // Both tabs read the one queue.
  await expect(page.getByText('3 changes waiting to sync').first()).toBeVisible();
  await expect(other.getByText('3 changes waiting to sync').first()).toBeVisible();

  const posts: string[] = [];
  context.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/fuel-consumptions')
      posts.push(r.headers()['idempotency-key'] ?? '');
  });
  // Both tabs get their `online` event together and both try to sync.
  await context.setOffline(false);
  for (const p of [page, other]) {
    await expect(p.getByText(/waiting to sync|Syncing/)).toHaveCount(0, { timeout: 20_000 });
  }
  const fuel = await call<{ liters: number }[]>(page, 'GET', `/api/fuel-consumptions/vehicle/${car.id}`);
  expect(fuel.map((f) => f.liters).sort()).toEqual([41, 42, 43]);
  // One request per entry: no tab sent one the other had sent.
  expect(posts).toHaveLength(3);
  expect(new Set(posts).size).toBe(3);
  await expect(other.locator(RECORD)).toHaveCount(3);
});

test('offline: the all-vehicles list shows what was cached; a reminder toggled offline shows at once and syncs', async ({
  page,
  context,
}) => {
  const car = await setUp(page, 'remind');
  const { id: _id, ...allianz } = makeInsurance({ vehicleId: car.id }); // reminder on
  await call(page, 'POST', '/api/insurance', allianz);
  // Seen once online: the all-vehicles insurance list.
  await page.goto('/insurance');
  const policy = page.locator('.record-card').filter({ hasText: 'Allianz' });
  await expect(policy.getByRole('img', { name: 'Reminder on' })).toBeVisible();

  await context.setOffline(true);
  await page.goto('/insurance');
  await expect(policy.getByRole('img', { name: 'Reminder on' })).toBeVisible();
  await expect(policy).toContainText('Dacia Logan');
  await policy.getByRole('button', { name: 'Stop Reminder: Allianz' }).click();
  await expect(policy.getByRole('img', { name: 'Reminder off' })).toBeVisible();
  await expect(policy).toContainText('Waiting to sync');
  await expect(page.getByText('1 change waiting to sync').first()).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByText(/waiting to sync|Syncing/)).toHaveCount(0, { timeout: 20_000 });
  const [saved] = await call<{ reminderEnabled: boolean; provider: string }[]>(
    page,
    'GET',
    `/api/insurance/vehicle/${car.id}`,
  );
  expect(saved).toMatchObject({ provider: 'Allianz', reminderEnabled: false });
  await expect(policy.getByRole('img', { name: 'Reminder off' })).toBeVisible();
});

// A phone photo of a fuel receipt (apps/server/ocr-dev/fixtures.ts): 49.43 L of diesel, £76.72 (the
// driver pays in euros and types the rate: no reference rate is known in these tests).
const RECEIPT = new URL('../../server/test/fixtures/receipts/fuel-en.jpg', import.meta.url).pathname;

test('offline: a receipt photographed with no signal is kept, read once online, and saved only on confirm', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const car = await setUp(page, 'rcpt');

  await context.setOffline(true);
  await page.getByTestId('fuel-receipt-input').setInputFiles(RECEIPT);
  const waiting = page.getByText('1 receipt will be read when you are back online.');
  await expect(waiting).toBeVisible();
  await expect(page.getByText('No connection: the receipt is saved on this device.')).toBeVisible();
  // Kept on the device: still there after a reload without signal.
  await page.reload();
  await expect(waiting).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Confirm OCR Data' })).toHaveCount(0);

  await context.setOffline(false);
  const dialog = page.getByRole('dialog', { name: 'Confirm OCR Data' });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByLabel('Litres')).toHaveValue('49.43');
  await expect(dialog.getByLabel('Total paid (£)')).toHaveValue('76.72');
  await expect(waiting).toHaveCount(0);
  // Nothing is saved before confirm.
  expect(await call<unknown[]>(page, 'GET', `/api/fuel-consumptions/vehicle/${car.id}`)).toEqual([]);
  await dialog.getByLabel('Exchange rate').fill('1.17');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('£76.72').first()).toBeVisible();
  const fuel = await call<{ liters: number }[]>(page, 'GET', `/api/fuel-consumptions/vehicle/${car.id}`);
  expect(fuel.map((f) => f.liters)).toEqual([49.43]);
  // The receipt was read once: nothing is left to read, even after a reload.
  await page.reload();
  await expect(page.locator(RECORD)).toHaveCount(1);
  await expect(page.getByRole('dialog', { name: 'Confirm OCR Data' })).toHaveCount(0);
  await expect(waiting).toHaveCount(0);
});
