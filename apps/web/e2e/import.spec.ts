import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { account, fillVehicleForm, register } from './helpers';
import { screenshots } from './shots';

// Issue 21: bring a car's history in from another app, take it out again, download all one's data.

const fixture = (name: string) =>
  new URL(`../../server/test/fixtures/import/${name}`, import.meta.url).pathname;

/** Written for these tests: a fill-up without odometer, one without cost, a row without a date, a wash. */
const GAPS = new URL('./fixtures/generic-en-gaps.csv', import.meta.url).pathname;

/** A record: a card, or (from 1024 px) a table row. */
const RECORD = '.record-card, .table--records tbody tr';

const addCar = (page: Page) =>
  fillVehicleForm(page, {
    make: 'Dacia',
    model: 'Logan',
    year: '2019',
    fuelType: 'PETROL',
    registration: 'B-21-IMP',
    engineSize: '1.0',
    odometer: '14000',
  });

test('import: from an empty vehicle list, a generic CSV is previewed with its warnings per row, imported once, and exported back', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await register(page, account('imp'));
  await page.goto('/vehicles');

  // Nothing yet: the list invites to bring the history from another app.
  const invite = page.getByRole('region', { name: 'Moving from another app?' });
  await expect(invite).toBeVisible();
  await screenshots(page, 'vehicles-empty');
  await invite.getByRole('button', { name: 'Add a vehicle and import' }).click();
  await addCar(page);

  // The import dialog opens for the new car; a spreadsheet of no known app is read as a generic CSV.
  const dialog = page.getByRole('dialog', { name: 'Import into Dacia Logan' });
  await expect(dialog.getByText('Drop a CSV or ZIP file here')).toBeVisible();
  await screenshots(page, 'import-choose', { fullPage: false });
  await dialog.locator('input[type="file"]').setInputFiles(GAPS);
  await expect(dialog.getByText('Format: Other CSV')).toBeVisible();
  const counts = dialog.getByRole('table', { name: 'What will be imported' });
  await expect(counts.getByRole('row', { name: /Fill-ups/ })).toContainText('3');
  await expect(counts.getByRole('row', { name: /Expenses/ })).toContainText('1');
  await expect(counts.getByRole('row', { name: /Skipped in total/ })).toContainText('1');
  // The columns it guessed, which the user may change.
  const mapping = dialog.getByRole('group', { name: 'Which column holds each field?' });
  await expect(mapping.getByLabel('Date')).toHaveValue('Date');
  await expect(mapping.getByLabel('Litres')).toHaveValue('Litres');
  // What happens to which row of the file.
  const issues = dialog.getByRole('table', { name: /Warnings and errors/ });
  await expect(issues).toBeVisible();
  const lines = issues.getByRole('row');
  await expect(lines.filter({ hasText: 'No odometer' }).first()).toContainText('Odometer');
  await expect(lines.filter({ hasText: 'No cost' })).toContainText('Total cost');
  await expect(lines.filter({ hasText: 'Error' })).toContainText(/date/i);
  await screenshots(page, 'import-preview', { fullPage: false });

  await dialog.getByRole('button', { name: 'Import 4 records' }).click();
  await expect(dialog.getByText('Imported 4 records (0 already there were skipped).')).toBeVisible();
  await screenshots(page, 'import-done', { fullPage: false });
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  // The records are in the car's lists.
  const card = page.getByRole('article', { name: 'Dacia Logan' });
  await card.getByRole('link', { name: 'Fuel' }).click();
  await expect(page.locator(RECORD)).toHaveCount(3);
  await expect(page.getByText('€280.00').first()).toBeVisible();
  await page.goto('/vehicles');
  await card.getByRole('link', { name: 'Expenses' }).click();
  await expect(page.locator(RECORD)).toHaveCount(1);
  await expect(page.getByText('€60.00').first()).toBeVisible();

  // The same file again adds nothing.
  await page.goto('/vehicles');
  await card.getByRole('button', { name: 'Import history into Dacia Logan' }).click();
  await dialog.locator('input[type="file"]').setInputFiles(GAPS);
  await expect(counts.getByRole('row', { name: /Already in this vehicle/ })).toContainText('4');
  await expect(dialog.getByRole('button', { name: 'Import 0 records' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  // Export: one CSV with every record, a kind column and this app's field names.
  const download = page.waitForEvent('download');
  await card.getByRole('link', { name: 'Export the records of Dacia Logan as CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const csv = readFileSync((await file.path()) as string, 'utf8');
  const rows = csv.trim().split(/\r?\n/);
  expect(rows[0]).toMatch(/^\uFEFF?kind,/);
  expect(rows.filter((l) => l.startsWith('fuel,'))).toHaveLength(3);
  expect(rows.filter((l) => l.startsWith('expense,'))).toHaveLength(1);
  expect(csv).toContain('2024-03-01');
});

test('import: a Drivvo export fills the fuel, service and expense lists', async ({ page }) => {
  await register(page, account('drv'));
  await page.goto('/vehicles');
  await page.getByRole('button', { name: 'Add new' }).click();
  await addCar(page);
  const card = page.getByRole('article', { name: 'Dacia Logan' });
  await card.getByRole('button', { name: 'Import history into Dacia Logan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import into Dacia Logan' });
  await dialog.locator('input[type="file"]').setInputFiles(fixture('drivvo-en.csv'));
  await expect(dialog.getByText('Format: Drivvo')).toBeVisible();
  await expect(dialog.getByRole('table', { name: 'First fill-ups' })).toContainText('2024-01-15');
  await expect(dialog.getByRole('table', { name: 'First other records' })).toContainText('Oil change');
  await dialog.getByRole('button', { name: /^Import \d+ records$/ }).click();
  await expect(dialog.getByText(/^Imported \d+ records/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  await card.getByRole('link', { name: 'Revision' }).click();
  await expect(page.getByText('Oil change').first()).toBeVisible();
  await page.goto('/vehicles');
  await card.getByRole('link', { name: 'Fuel' }).click();
  await expect(page.locator(RECORD)).toHaveCount(2);
});

test('settings: "Download my data" downloads a ZIP', async ({ page }) => {
  await register(page, account('zip'));
  await page.goto('/settings');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.zip$/);
  const bytes = readFileSync((await file.path()) as string);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  await screenshots(page, 'settings');
});
