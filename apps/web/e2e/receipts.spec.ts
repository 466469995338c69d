import { expect, test } from '@playwright/test';
import { newDriverOnFuelScreen } from './helpers';

// A phone photo of a fuel receipt (made by apps/server/ocr-dev/fixtures.ts): a Bristol station, 49.43 L
// of diesel, 1.552/L, £76.72 in all, 12 Aug 2025, odometer 144,936 km. The driver pays in euros: the
// receipt's pounds are kept, at the rate they type (no reference rate is known in these tests).
const RECEIPT = new URL('../../server/test/fixtures/receipts/fuel-en.jpg', import.meta.url).pathname;
const SHOTS = process.env.OCR_SCREENSHOTS;

test('fuel receipt: upload a photo, edit a field in Confirm OCR Data, confirm; the record and its consumption appear', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await newDriverOnFuelScreen(page, 'ocr', {
    make: 'Dacia',
    model: 'Duster',
    year: '2020',
    fuelType: 'DIESEL',
    tag: 'OCR',
    engineSize: '1.5',
    odometer: '143000',
  });
  const vehicleUrl = page.url();

  // An earlier full tank, so the receipt's fill-up gets a consumption.
  await page.getByRole('button', { name: 'Add Manually' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add Fuel Entry' });
  await dialog.getByLabel('Date').fill('2025-08-01');
  await dialog.getByLabel('Litres').fill('40');
  await dialog.getByLabel('Total paid (€)').fill('62');
  await dialog.getByLabel('Odometer (km)').fill('144000');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  // The receipt: the picker takes a photo; the progress shows, then the confirm dialog opens.
  await page.locator('input[type="file"][accept="image/*,application/pdf"]').setInputFiles(RECEIPT);
  dialog = page.getByRole('dialog', { name: 'Confirm OCR Data' });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByLabel('Litres')).toHaveValue('49.43');
  await expect(dialog.getByLabel('Total paid (£)')).toHaveValue('76.72');
  await expect(dialog.getByLabel('Date')).toHaveValue('2025-08-12');
  // A car of one fuel: the fill is that fuel, no picker to get wrong (issue 51).
  await expect(dialog.getByLabel('Fuel type')).toHaveCount(0);
  await expect(dialog.getByLabel('Odometer (km)')).toHaveValue('144936');
  // Nothing is saved before confirm.
  await expect(page.getByText('£76.72')).toHaveCount(0);
  if (SHOTS) {
    for (const [w, h] of [
      [360, 760],
      [1366, 900],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `${SHOTS}/confirm-${w}-light.png` });
      await page.evaluate(() => document.body.classList.add('dark-mode'));
      await page.screenshot({ path: `${SHOTS}/confirm-${w}-dark.png` });
      await page.evaluate(() => document.body.classList.remove('dark-mode'));
    }
  }

  // The user types the rate they paid, corrects the odometer, then confirms.
  await dialog.getByLabel('Exchange rate').fill('1.17');
  await dialog.getByLabel('Odometer (km)').fill('144500');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('£76.72').first()).toBeVisible();
  // 49.43 L over 500 km: 9.886, shown to one decimal as the reader's consumption.
  await expect(page.getByText(/^9\.9\sL\/100\skm$/)).toBeVisible();
  await page.goto(vehicleUrl);
  await expect(page.getByText(/^9\.9\sL\/100\skm$/)).toBeVisible();
});
