import { expect, test } from '@playwright/test';
import { account, postVehicle, register } from './helpers';

/**
 * Personal API tokens (issue 53): made in Settings, shown once, then used by a script (Node's fetch,
 * no cookie, no CSRF header) to add a fill-up; the list then shows the token's last use.
 */
test('creates a token in Settings and a script adds a fill-up with it', async ({ page, baseURL }) => {
  await register(page, account('tokens'));
  const car = await postVehicle(page, {
    make: 'Dacia',
    model: 'Duster',
    year: 2021,
    fuelType: 'DIESEL',
    engineSize: 1.5,
    odometer: 40_000,
  });
  await page.goto('/settings');
  await page.getByLabel('Name', { exact: true }).fill('Home Assistant');
  await page.getByLabel('Scope').selectOption('read-write');
  await page.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByLabel('Your new token');
  await expect(shown).toHaveValue(/^evd_/);
  await expect(page.getByText('Copy it now: it is not shown again.')).toBeVisible();
  const token = await shown.inputValue();

  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const added = await fetch(`${baseURL}/api/fuel-consumptions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      vehicleId: car.id,
      fuelType: 'DIESEL',
      liters: 42.5,
      fuelPrice: 310,
      date: '2026-03-01',
    }),
  });
  expect(added.status).toBe(201);
  const list = await fetch(`${baseURL}/api/fuel-consumptions/vehicle/${car.id}`, { headers });
  expect(((await list.json()) as { liters: number }[]).map((f) => f.liters)).toEqual([42.5]);

  await page.reload();
  const tokens = page.getByRole('list', { name: 'Your API tokens' });
  await expect(tokens.getByText('Home Assistant')).toBeVisible();
  await expect(tokens.getByText(/Last used .* from /)).toBeVisible();
  await expect(page.getByLabel('Your new token')).toHaveCount(0);

  // Revoked: the script is refused (401).
  page.once('dialog', (d) => void d.accept());
  await tokens.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('No API tokens yet.')).toBeVisible();
  expect((await fetch(`${baseURL}/api/vehicles`, { headers })).status).toBe(401);
});
