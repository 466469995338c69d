import { expect, test } from '@playwright/test';
import { account, fillVehicleForm, register } from './helpers';
import { screenshots } from './shots';

// Issue 49: a LubeLogger file says nothing of its units, and a default (en-US) install shows `$`
// in the costs of a car driven in kilometres. The preview asks, pre-set by the guess it names, its
// figures follow the picker, and what is stored is what the user saw.

const fixture = (name: string) =>
  new URL(`../../server/test/fixtures/import/${name}`, import.meta.url).pathname;

test('import: LubeLogger units are the user’s choice in the preview, pre-set by the guess', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await register(page, account('unit'));
  await page.goto('/vehicles');
  await page.getByRole('button', { name: 'Add new' }).click();
  await fillVehicleForm(page, {
    make: 'Dacia',
    model: 'Logan',
    year: '2019',
    fuelType: 'PETROL',
    registration: 'B-49-UNT',
    engineSize: '1.0',
    odometer: '150000',
  });
  const card = page.getByRole('article', { name: 'Dacia Logan' });
  await card.getByRole('button', { name: 'Import history into Dacia Logan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import into Dacia Logan' });
  await dialog.locator('input[type="file"]').setInputFiles(fixture('lubelogger-gas-km-dollar.csv'));

  await expect(dialog.getByText('Format: LubeLogger')).toBeVisible();
  const units = dialog.getByRole('group', { name: 'Units in the file' });
  await expect(units).toContainText('Guessed from the $ in the costs: miles and US gallons.');
  await expect(units.getByLabel('Distances')).toHaveValue('mi');
  await expect(units.getByLabel('Volumes')).toHaveValue('usgal');
  const sample = dialog.getByRole('table', { name: 'First fill-ups' });
  await expect(sample).toContainText('244620');
  await screenshots(page, 'import-units-guess', { fullPage: false });

  // The user drove kilometres and poured litres: the preview reads the file again with them.
  await units.getByLabel('Distances').selectOption('km');
  await expect(sample).toContainText('152000');
  await units.getByLabel('Volumes').selectOption('l');
  await expect(sample.getByRole('row').nth(1)).toContainText('42.5');
  await screenshots(page, 'import-units-picked', { fullPage: false });
  await sample.scrollIntoViewIfNeeded();
  await screenshots(page, 'import-units-sample', { fullPage: false });

  await dialog.getByRole('button', { name: 'Import 3 records' }).click();
  await expect(dialog.getByText('Imported 3 records (0 already there were skipped).')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  // Stored as picked: the car's odometer is the file's last reading in km, not 1.609 times it.
  await expect(card).toContainText(/153[,.\s\u202f]?150/);
});
