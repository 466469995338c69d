import { expect, test } from '@playwright/test';
import { newDriverOnFuelScreen } from './helpers';

// The receipt's reading is fixed here (the preview route answers a known draft) so that every kind
// of mark shows at once: a warning naming a field, a low-confidence reading, a field not found.
// The real reading of a photo is covered by receipts.spec.ts.
const SHOTS = process.env.OCR_SCREENSHOTS;
const MISMATCH =
  'Litres × price per litre (42.17 × 7.45) does not match the total paid (341.17). Check the three numbers.';

test('Confirm OCR Data: fields to check are highlighted and say why under them (360 px and desktop, light and dark)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await newDriverOnFuelScreen(page, 'ocrmarks', {
    make: 'Dacia',
    model: 'Logan',
    year: '2019',
    fuelType: 'DIESEL',
    tag: 'MRK',
    engineSize: '1.5',
    odometer: '120000',
  });

  await page.route('**/api/fuel-ocr/preview/*', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        date: '2025-03-12',
        liters: 42.17,
        fuelPrice: 341.17,
        pricePerLiter: 7.45,
        odometer: null,
        fuelType: 'DIESEL',
        confidence: {
          date: 0.95,
          liters: 0.93,
          fuelPrice: 0.55,
          pricePerLiter: 0.48,
          odometer: 0,
          fuelType: 0.9,
        },
        warnings: [{ field: 'fuelPrice', code: 'TOTAL_MISMATCH', message: MISMATCH }],
        language: 'ro',
        source: 'ocr',
      }),
    }),
  );
  await page.locator('input[type="file"][accept="image/*,application/pdf"]').setInputFiles({
    name: 'receipt.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  });
  const dialog = page.getByRole('dialog', { name: 'Confirm OCR Data' });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByLabel('Total paid (€)')).toHaveAccessibleDescription(MISMATCH);
  await expect(dialog.getByLabel(/Price per litre/)).toHaveAccessibleDescription(
    'Hard to read on the receipt (read with 48% confidence): compare it with the paper.',
  );
  await expect(dialog.getByLabel('Odometer (km)')).toHaveAccessibleDescription('Not found on the receipt.');
  await expect(dialog.getByLabel('Litres')).not.toHaveAttribute('aria-describedby');
  await expect(dialog.getByRole('status')).toContainText('3 fields are marked below');
  if (SHOTS) {
    for (const [w, h] of [
      [360, 760],
      [1366, 900],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await dialog.getByLabel('Total paid (€)').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/marks-${w}-light.png` });
      await page.evaluate(() => document.body.classList.add('dark-mode'));
      await page.screenshot({ path: `${SHOTS}/marks-${w}-dark.png` });
      await page.evaluate(() => document.body.classList.remove('dark-mode'));
    }
  }
});
