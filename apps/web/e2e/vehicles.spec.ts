import { expect, type Page, test } from '@playwright/test';
import { account, fillVehicleForm, logout, register } from './helpers';

const PHOTO = new URL('../../server/test/fixtures/car-gps.jpg', import.meta.url).pathname;

/** Accepts the next window.confirm, checking its text. */
function acceptConfirm(page: Page, text: string) {
  page.once('dialog', async (d) => {
    expect(d.message()).toBe(text);
    await d.accept();
  });
}

test('vehicles and records: photo, filter, every record kind, and another user sees nothing', async ({
  page,
}) => {
  // Every record kind, two accounts and a reload: about a minute on a quiet machine.
  test.setTimeout(150_000);
  const owner = account('owner');
  const intruder = account('intruder');
  await register(page, owner);

  // A vehicle with a photo (downsized in the browser, uploaded as JPEG) shows it on its card.
  await page.getByRole('link', { name: 'Vehicles' }).first().click();
  await expect(page.getByRole('heading', { name: 'Vehicles', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add new' }).click();
  await fillVehicleForm(
    page,
    {
      make: 'Dacia',
      model: 'Logan',
      year: '2019',
      registration: 'b-123-abc',
      engineSize: '1.5',
      odometer: '120000',
      fuelType: 'DIESEL',
      vin: ' uu1ksdaf456789012 ',
    },
    PHOTO,
  );
  const logan = page.getByRole('article', { name: 'Dacia Logan' });
  await expect(logan).toContainText('B-123-ABC');
  // The optional VIN, as typed but upper-case, on one small line that fits a 360 px phone.
  await expect(logan).toContainText('VIN UU1KSDAF456789012');
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 780 });
  const vinLine = logan.getByText('VIN UU1KSDAF456789012');
  const [line, card] = [await vinLine.boundingBox(), await logan.boundingBox()];
  expect(line && card && line.x + line.width <= card.x + card.width).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (process.env.VIN_SHOT) await logan.screenshot({ path: process.env.VIN_SHOT });
  if (viewport) await page.setViewportSize(viewport);
  await expect(logan).toContainText('120,000 km');
  await expect(logan).toContainText('Diesel');
  const img = logan.getByRole('img', { name: 'Photo of Dacia Logan' });
  await expect(img).toBeVisible();
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth))
    .toBeGreaterThan(0);
  const size = await img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight]);
  expect(size[0]).toBeLessThanOrEqual(600);
  expect(size[1]).toBeLessThanOrEqual(400);

  // Filter by make (case-insensitive), then clear.
  await page.getByRole('button', { name: 'Add new' }).click();
  await fillVehicleForm(page, {
    make: 'Volkswagen',
    model: 'Golf',
    year: '2012',
    registration: 'CJ-01-XYZ',
    engineSize: '1.4',
    odometer: '210000',
    fuelType: 'PETROL',
  });
  await expect(page.getByRole('article')).toHaveCount(2);
  await page.getByRole('button', { name: 'Filter' }).click();
  const panel = page.getByRole('dialog', { name: 'Filter vehicles' });
  await panel.getByLabel('Make').fill('dAc');
  await panel.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(logan).toBeVisible();
  await page.getByRole('button', { name: 'Filter' }).click();
  await panel.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByRole('article')).toHaveCount(2);

  // Insurance: add, edit, reminder toggle, delete.
  await logan.getByRole('link', { name: 'Insurance' }).click();
  await expect(page.getByRole('heading', { name: 'Insurance for Dacia Logan' })).toBeVisible();
  const vehicleId = new URL(page.url()).pathname.split('/').pop() as string;
  await page.getByRole('button', { name: 'Add Insurance' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add Insurance' });
  await expect(dialog.getByLabel('Enable Expiry Reminder')).toBeChecked();
  await dialog.getByLabel('Provider').fill('Allianz');
  await dialog.getByLabel('Policy number').fill('RCA-1');
  await dialog.getByLabel('Coverage type').fill('RCA');
  await dialog.getByLabel('Start date').fill('2025-01-01');
  await dialog.getByLabel('End date').fill('2025-12-31');
  await dialog.getByLabel('Price (€)').fill('350');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Valid from Jan 1, 2025 until Dec 31, 2025')).toBeVisible();
  await expect(page.getByText('€350.00')).toBeVisible();
  await page.getByRole('button', { name: 'Edit insurance Allianz' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Insurance' });
  await dialog.getByLabel('Provider').fill('Groupama');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Groupama' })).toBeVisible();
  await page.getByRole('button', { name: 'Stop Reminder: Groupama' }).click();
  await expect(page.getByRole('button', { name: 'Enable Reminder: Groupama' })).toBeVisible();
  acceptConfirm(page, 'Delete this insurance?');
  await page.getByRole('button', { name: 'Delete insurance Groupama' }).click();
  await expect(page.getByText('No insurance policies yet.')).toBeVisible();

  // Expense.
  await page.goto(`/expenses/${vehicleId}`);
  await page.getByRole('button', { name: 'Add Manually' }).click();
  dialog = page.getByRole('dialog', { name: 'Add Expense' });
  await dialog.getByLabel('Expense type').selectOption('Tyres');
  await dialog.getByLabel('Date').fill('2025-04-01');
  await dialog.getByLabel('Amount (€)').fill('600.5');
  await dialog.getByLabel('Description').fill('Winter tyres');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('€600.50')).toBeVisible();
  await page.getByRole('button', { name: 'Edit expense Tyres Apr 1, 2025' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Expense' });
  await dialog.getByLabel('Amount (€)').fill('620');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('€620.00')).toBeVisible();
  acceptConfirm(page, 'Delete this expense?');
  await page.getByRole('button', { name: 'Delete expense Tyres Apr 1, 2025' }).click();
  await expect(page.getByText('No expenses yet.')).toBeVisible();

  // Fuel: two full fills give a consumption; an out-of-order odometer is refused next to the field.
  await page.goto(`/fuel/${vehicleId}`);
  for (const [date, km, litres, paid] of [
    ['2025-03-01', '120000', '40', '280'],
    ['2025-03-15', '120800', '48', '336'],
  ]) {
    await page.getByRole('button', { name: 'Add Manually' }).click();
    dialog = page.getByRole('dialog', { name: 'Add Fuel Entry' });
    await dialog.getByLabel('Date').fill(date as string);
    await dialog.getByLabel('Litres').fill(litres as string);
    await dialog.getByLabel('Total paid (€)').fill(paid as string);
    await dialog.getByLabel('Odometer (km)').fill(km as string);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
  }
  // A card reads '6.0 L/100 km'; the table (from 1024 px) has the unit in its column header.
  await expect(page.getByText(/^6\.0(\sL\/100\skm)?$/)).toBeVisible();
  await expect(page.getByText('€336.00').first()).toBeVisible();
  await page.getByRole('button', { name: 'Add Manually' }).click();
  dialog = page.getByRole('dialog', { name: 'Add Fuel Entry' });
  await dialog.getByLabel('Date').fill('2025-03-20');
  await dialog.getByLabel('Litres').fill('10');
  await dialog.getByLabel('Total paid (€)').fill('70');
  await dialog.getByLabel('Odometer (km)').fill('9000');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(/Odometer 9,000 km is lower than/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Edit fuel entry Mar 15, 2025' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Fuel Entry' });
  await dialog.getByLabel('Total paid (€)').fill('340');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('€340.00').first()).toBeVisible();
  acceptConfirm(page, 'Delete this fuel entry?');
  await page.getByRole('button', { name: 'Delete fuel entry Mar 1, 2025' }).click();
  await expect(page.getByText('Mar 1, 2025', { exact: true })).toHaveCount(0);

  // Revision: add, edit, next-revision date, delete.
  await page.goto(`/revision/${vehicleId}`);
  await page.getByRole('button', { name: 'Add Revision' }).click();
  dialog = page.getByRole('dialog', { name: 'Add Revision' });
  await dialog.getByLabel('Date').fill('2025-02-10');
  await dialog.getByLabel('Mileage (km)').fill('118000');
  await dialog.getByLabel('Price (€)').fill('420');
  await dialog.getByLabel('Description').fill('Oil and filters');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('€420.00')).toBeVisible();
  await page.getByRole('button', { name: 'Edit revision Feb 10, 2025' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Revision' });
  await dialog.getByLabel('Price (€)').fill('450');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('€450.00')).toBeVisible();
  const next = page.getByLabel('Next revision date for revision Feb 10, 2025');
  await next.fill('2026-02-10');
  await next.press('Enter');
  await page.reload();
  await expect(page.getByLabel('Next revision date for revision Feb 10, 2025')).toHaveValue('2026-02-10');
  acceptConfirm(page, 'Delete this revision?');
  await page.getByRole('button', { name: 'Delete revision Feb 10, 2025' }).click();
  await expect(page.getByText('No revisions yet.')).toBeVisible();

  // Another user opening the owner's fuel page sees the not-found state and none of the data.
  await logout(page);
  await register(page, intruder);
  await page.goto(`/fuel/${vehicleId}`);
  await expect(page.getByRole('heading', { name: 'Vehicle not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to vehicles' })).toBeVisible();
  await expect(page.getByText('€340.00')).toHaveCount(0);
  await expect(page.getByText(/L\/100\s?km/)).toHaveCount(0);
  await expect(page.getByText('Dacia')).toHaveCount(0);
});
