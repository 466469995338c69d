import { expect, type Page, test } from '@playwright/test';
import { newDriverOnFuelScreen } from './helpers';
import { screenshots } from './shots';

// Issue 50: money in the currency each driver pays in, measures in the units they read. A Romanian
// driver types a fill-up in lei and reads lei; an American types gallons, miles and dollars and
// reads MPG. Stored metric, shown as typed.

const PHONE = { width: 360, height: 800 };

/** A record card on the fuel screen, by a figure it shows. */
const cardWith = (page: Page, text: string | RegExp) =>
  page.locator('.record-card').filter({ hasText: text });

test('a Romanian driver at 360 px types a fill-up in lei and reads lei on its card', async ({ page }) => {
  test.setTimeout(120_000);
  await newDriverOnFuelScreen(page, 'lei', {
    make: 'Dacia',
    model: 'Logan',
    year: '2019',
    fuelType: 'PETROL',
    engineSize: '1.0',
    odometer: '150000',
    tag: 'LEI',
  });
  const fuelScreen = page.url();
  // A phone from here on (registering checks the desktop nav's 'Logged in as').
  await page.setViewportSize(PHONE);

  // Romanian: the country follows the language and proposes lei; the user takes the proposal.
  await page.goto('/settings');
  await page.getByLabel('Language').selectOption('ro');
  await page.getByRole('button', { name: 'Folosește-le' }).click();
  await expect(page.getByLabel('Monedă', { exact: true })).toHaveValue('RON');
  await expect(page.getByLabel('Consum', { exact: true })).toHaveValue('L_100KM');
  await page.getByRole('button', { name: 'Salvează' }).click();
  await expect(page.getByText('Setările au fost salvate.')).toBeVisible();

  await page.goto(fuelScreen);
  await page.getByRole('button', { name: 'Adaugă manual' }).click();
  const dialog = page.getByRole('dialog', { name: 'Adaugă alimentare' });
  await expect(dialog.getByLabel('Monedă', { exact: true })).toHaveValue('RON');
  await dialog.getByLabel('Litri', { exact: true }).fill('38.5');
  await dialog.getByLabel('Total plătit (lei)').fill('289.90');
  await dialog.getByLabel('Kilometraj (km)').fill('150420');
  await screenshots(page, 'money-units-ron-form', { fullPage: false });
  await dialog.getByRole('button', { name: 'Salvează' }).click();
  await expect(dialog).toBeHidden();

  const card = cardWith(page, '150.420 km');
  await expect(card).toContainText('289,90 lei');
  await expect(card).toContainText('38,50 L');
  await expect(card).not.toContainText('€');
  await screenshots(page, 'money-units-ron-card');
});

test('an American driver types gallons, miles and dollars and reads MPG', async ({ page }) => {
  test.setTimeout(120_000);
  await newDriverOnFuelScreen(page, 'usd', {
    make: 'Ford',
    model: 'Focus',
    year: '2018',
    fuelType: 'PETROL',
    engineSize: '2.0',
    odometer: '150000',
    tag: 'USD',
  });
  const fuelScreen = page.url();
  // A phone from here on (registering checks the desktop nav's 'Logged in as').
  await page.setViewportSize(PHONE);

  // A new country proposes its money and units; nothing changes until the user takes them.
  await page.goto('/settings');
  await page.getByLabel(/^Country/).selectOption('US');
  await expect(page.getByLabel('Currency', { exact: true })).toHaveValue('EUR');
  await page.getByRole('button', { name: 'Use these' }).click();
  await expect(page.getByLabel('Currency', { exact: true })).toHaveValue('USD');
  await expect(page.getByLabel('Distance', { exact: true })).toHaveValue('mi');
  await expect(page.getByLabel('Fuel volume')).toHaveValue('USGAL');
  await expect(page.getByLabel('Consumption', { exact: true })).toHaveValue('MPG_US');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();

  // Two full tanks 300 miles apart: 9.5 gallons for 300 miles is 31.6 mpg.
  await page.goto(fuelScreen);
  for (const fill of [
    { gallons: '10.57', paid: '36.99', miles: '93300' },
    { gallons: '9.5', paid: '33.25', miles: '93600' },
  ]) {
    await page.getByRole('button', { name: 'Add Manually' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Fuel Entry' });
    await dialog.getByLabel('US gallons').fill(fill.gallons);
    await dialog.getByLabel('Total paid ($)').fill(fill.paid);
    await dialog.getByLabel('Odometer (mi)').fill(fill.miles);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
  }

  const card = cardWith(page, '93,600 mi');
  await expect(card).toContainText('$33.25');
  await expect(card).toContainText('9.50 gal');
  await expect(card).toContainText('31.6 mpg');
  await expect(card).not.toContainText(/€|L\/100/);
  await screenshots(page, 'money-units-usd-card');

  // Opened again, the fill-up reads as typed: miles and gallons, not their metric round trip.
  await card.getByRole('button', { name: /^Edit/ }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Fuel Entry' });
  await expect(edit.getByLabel('Odometer (mi)')).toHaveValue('93600');
  await expect(edit.getByLabel('US gallons')).toHaveValue('9.5');
  await expect(edit.getByLabel('Total paid ($)')).toHaveValue('33.25');
});
