import { expect, type Page, test } from '@playwright/test';
import { account, appRunning, post, register } from './helpers';
import { screenshots } from './shots';

// Issue 22: "Offline queued writes by an editor whose access was revoked fail with a clear message
// in the sync centre; nothing is lost silently."

/** A record: a card, or (from 1024 px) a table row. */
const RECORD = '.record-card, .table--records tbody tr';

/** DELETE as the logged-in user of `page`; fails the test unless 204. */
async function del(page: Page, path: string) {
  const token = await page.evaluate(() => localStorage.getItem('token') ?? '');
  const res = await page.request.delete(path, { headers: { 'X-CSRF-Token': token } });
  expect(res.status(), `${path} → ${await res.text()}`).toBe(204);
}

test('offline: a fill-up queued by an editor whose access then ends is kept in the sync centre with why, until dismissed', async ({
  page,
  context,
  browser,
}) => {
  // The owner works in their own browser; the editor in `page`.
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  const owner = account('own');
  const editor = account('ed');
  await register(ownerPage, owner);
  await register(page, editor);
  const car = await post(ownerPage, '/api/vehicles', {
    make: 'Dacia',
    model: 'Duster',
    year: 2020,
    fuelType: 'DIESEL',
    registrationNumber: 'B-22-OFF',
    engineSize: 1.5,
    odometer: 60_000,
    aiEvaluationConsent: false,
  });
  const share = await post(ownerPage, `/api/vehicles/${car.id}/shares`, {
    username: editor.username,
    role: 'EDITOR',
  });

  // The editor opens the car's fuel screen online (it is cached), then loses the connection.
  await page.goto('/vehicles');
  await expect(page.getByRole('article', { name: 'Dacia Duster' })).toContainText(
    `Shared by ${owner.username}`,
  );
  await page.goto(`/fuel/${car.id}`);
  await expect(page.getByText('No fuel records for this period.')).toBeVisible();
  await appRunning(page);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await context.setOffline(true);

  await page.getByRole('button', { name: 'Add Manually' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Fuel Entry' });
  await dialog.getByLabel('Date').fill('2025-05-02');
  await dialog.getByLabel('Litres').fill('41.5');
  await dialog.getByLabel('Total paid (€)').fill('297.35');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator(RECORD)).toContainText('Waiting to sync');

  // Meanwhile the owner stops sharing the car.
  await del(ownerPage, `/api/vehicles/${car.id}/shares/${share.userId}`);

  // Back online: the write is refused, and the sync centre says so, with what was not saved.
  await context.setOffline(false);
  const failure = page.locator('.sync-failure');
  await expect(failure).toContainText(
    'Your offline change to Fuel entry 2025-05-02 was not saved: you no longer have access to this car',
    { timeout: 20_000 },
  );
  await expect(page.getByText(/waiting to sync|Syncing/)).toHaveCount(0);
  await failure.getByText('What was not saved').click();
  const notSaved = failure.locator('dl');
  await expect(notSaved.locator('div', { hasText: 'Litres' })).toContainText('41.5');
  await expect(notSaved.locator('div', { hasText: 'Total paid' })).toContainText('297.35');
  await expect(notSaved.locator('div', { hasText: 'Fuel type' })).toContainText('Diesel');
  await screenshots(page, 'sync-failure');

  // Nothing reached the owner's car.
  const fuel = await ownerPage.request.get(`/api/fuel-consumptions/vehicle/${car.id}`);
  expect(await fuel.json()).toEqual([]);

  // Kept across a reload, on any screen, until the editor dismisses it.
  await page.goto('/vehicles');
  await expect(page.locator('.sync-failure')).toContainText('you no longer have access to this car');
  await expect(page.getByRole('article', { name: 'Dacia Duster' })).toHaveCount(0);
  await page.locator('.sync-failure').getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.locator('.sync-failure')).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(`Logged in as ${editor.username}`)).toBeVisible();
  await expect(page.locator('.sync-failure')).toHaveCount(0);
  await ownerContext.close();
});
