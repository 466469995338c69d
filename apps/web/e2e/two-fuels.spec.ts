import { expect, test } from '@playwright/test';
import { account, post, register } from './helpers';
import { screenshots } from './shots';

// Issue 51: a Dacia Logan Eco-G runs on LPG and petrol. At 360 px in Romanian its driver logs an
// LPG fill and a petrol fill, each in its own fuel, and reads two consumption figures (one per fuel)
// under one cost per km.

const PHONE = { width: 360, height: 800 };

test('a Logan Eco-G logs an LPG fill and a petrol fill and reads two consumptions and one cost per km', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await register(page, account('ecog'));
  await page.setViewportSize(PHONE);
  await page.goto('/settings');
  await page.getByLabel('Language').selectOption('ro');
  await page.getByRole('button', { name: 'Folosește-le' }).click();
  await page.getByRole('button', { name: 'Salvează' }).click();
  await expect(page.getByText('Setările au fost salvate.')).toBeVisible();

  // The car, and each fuel's last full tank before today's fills (typed earlier).
  const car = await post(page, '/api/vehicles', {
    make: 'Dacia',
    model: 'Logan Eco-G',
    year: 2023,
    fuelType: 'GPL',
    secondaryFuelType: 'PETROL',
    tankCapacity: 32,
    secondaryTankCapacity: 50,
    registrationNumber: `B-${Date.now().toString().slice(-3)}-GPL`,
    engineSize: 1.0,
    odometer: 9000,
  });
  for (const fill of [
    { date: '2025-03-01', fuelType: 'GPL', liters: 30, fuelPrice: 105, odometer: 10000 },
    { date: '2025-03-02', fuelType: 'PETROL', liters: 20, fuelPrice: 140, odometer: 10010 },
  ])
    await post(page, '/api/fuel-consumptions', {
      ...fill,
      vehicleId: car.id,
      currency: 'RON',
      fullTank: true,
    });

  await page.goto(`/fuel/${car.id}`);
  await expect(page.getByRole('heading', { name: /Dacia Logan Eco-G/ })).toBeVisible();

  // LPG, the primary fuel: preselected.
  await page.getByRole('button', { name: 'Adaugă manual' }).click();
  let dialog = page.getByRole('dialog', { name: 'Adaugă alimentare' });
  await expect(dialog.getByLabel('Combustibil', { exact: true })).toHaveValue('GPL');
  await dialog.getByLabel('Data', { exact: true }).fill('2025-03-10');
  await dialog.getByLabel('Litri', { exact: true }).fill('40');
  await dialog.getByLabel('Total plătit (lei)').fill('140');
  await dialog.getByLabel('Kilometraj (km)').fill('10450');
  await screenshots(page, 'two-fuels-lpg-form', { fullPage: false });
  await dialog.getByRole('button', { name: 'Salvează' }).click();
  await expect(dialog).toBeHidden();

  // Petrol: picked, with the trip counter left empty (the distance is estimated).
  await page.getByRole('button', { name: 'Adaugă manual' }).click();
  dialog = page.getByRole('dialog', { name: 'Adaugă alimentare' });
  await dialog.getByLabel('Combustibil', { exact: true }).selectOption('PETROL');
  await expect(dialog.getByLabel('Distanță pe acest combustibil (km)')).toBeVisible();
  await dialog.getByLabel('Data', { exact: true }).fill('2025-04-05');
  await dialog.getByLabel('Litri', { exact: true }).fill('5');
  await dialog.getByLabel('Total plătit (lei)').fill('35.50');
  await dialog.getByLabel('Kilometraj (km)').fill('11600');
  await dialog.getByRole('button', { name: 'Salvează' }).click();
  await expect(dialog).toBeHidden();

  // Each fill in its own chain: LPG 40 L over 450 km, petrol 5 L over 1,590 km.
  const lpgCard = page.locator('.record-card').filter({ hasText: '10.450 km' });
  await expect(lpgCard).toContainText('GPL');
  await expect(lpgCard).toContainText('8,9 L/100 km');
  const petrolCard = page.locator('.record-card').filter({ hasText: '11.600 km' });
  await expect(petrolCard).toContainText('Benzină');
  await expect(petrolCard).toContainText('0,3 L/100 km');
  await screenshots(page, 'two-fuels-cards');

  await page.goto(`/analytics/${car.id}`);
  const split = page.getByTestId('fuel-split');
  await expect(split).toContainText('GPL 8,9 L/100 km + benzină 0,3 L/100 km');
  // One cost per km: every leu of both fuels over the distance driven.
  await expect(split.locator('.stat__value')).toHaveCount(1);
  await expect(split.locator('.stat__value')).toContainText(/lei\/km$/);
  await expect(split).toContainText('distanța pe fiecare combustibil e estimată');
  // The months: one consumption line per fuel beside the total cost, each month's quantity per fuel.
  const monthly = page.getByRole('region', { name: 'Costuri lunare' });
  await expect(monthly.getByRole('img', { name: 'Consumul pe combustibil, pe luni' })).toBeVisible();
  const march = page.getByRole('listitem', { name: 'Mar 2025' });
  await expect(march).toContainText('GPL70,00 L');
  await expect(march).toContainText('Benzină20,00 L');
  await screenshots(page, 'two-fuels-analytics');

  // My analytics: the fuel cost in one series per fuel, each fuel's quantity in its own unit.
  await page.goto('/analytics/user');
  const fuels = page.getByRole('region', { name: 'Costul carburantului pe combustibil, pe luni' });
  await expect(
    fuels.getByRole('img', { name: 'Costul carburantului pe combustibil, pe luni' }),
  ).toBeVisible();
  await expect(fuels).toContainText('GPL: 70,00 L pentru 245,00 lei, 2 alimentări');
  await expect(fuels).toContainText('Benzină: 25,00 L pentru 175,50 lei, 2 alimentări');
  await screenshots(page, 'two-fuels-user-analytics');
});
