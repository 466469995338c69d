import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { newUser, post } from './helpers';

/** Set SHOTS=dir to save the public report and verification pages at 360 px, light and dark. */
const SHOTS = process.env.SHOTS;

const daysFromToday = (n: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** "Copy link" writes the report's address to the clipboard. */
const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  await page.setViewportSize({ width: 360, height: 780 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/${name}-360-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('owner shares the history report; a signed-out reader opens it, downloads the PDF, checks its code; the listing card links it; a revoked link is a 404 page', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const owner = await newUser(browser, 'seller', CLIPBOARD);
  const car = await post(owner.page, '/api/vehicles', {
    make: 'Dacia',
    model: 'Duster',
    year: 2017,
    fuelType: 'DIESEL',
    registrationNumber: `B-${Date.now().toString().slice(-5)}-RPT`,
    engineSize: 1.5,
    odometer: 120_000,
    aiEvaluationConsent: false,
  });
  const vehicleId = car.id as number;
  for (const [k, odometer] of [
    [-90, 118_000],
    [-60, 119_000],
    [-30, 120_000],
  ] as const)
    await post(owner.page, '/api/fuel-consumptions', {
      vehicleId,
      fuelType: 'DIESEL',
      date: daysFromToday(k),
      liters: 45,
      fuelPrice: 320,
      odometer,
      fullTank: true,
    });
  await post(owner.page, '/api/revision', {
    vehicleId,
    date: daysFromToday(-100),
    km: 117_500,
    price: 410,
    description: 'Distribution kit',
  });

  // The owner makes a 7-day link from the vehicle's page.
  await owner.page.goto(`/analytics/${vehicleId}`);
  const panel = owner.page.getByRole('region', { name: 'History report' });
  await panel.getByLabel('Valid for (days)').fill('7');
  await panel.getByRole('button', { name: 'Create and copy link' }).click();
  await expect(panel.getByText('Link copied to the clipboard.')).toBeVisible();
  const link = panel.getByRole('link', { name: /\/r\// });
  await expect(link).toHaveCount(1);
  const url = (await link.getAttribute('href')) as string;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/r\/[A-Za-z0-9_-]{43}$/);
  expect(await owner.page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  // Signed out: another browser context with no session.
  const reader = await browser.newContext({ acceptDownloads: true });
  const page = await reader.newPage();
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['x-robots-tag']).toContain('noindex');
  await expect(page.getByRole('heading', { level: 1, name: 'Vehicle history report' })).toBeVisible();
  await expect(page.getByText('Dacia Duster · 2017')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Service history' })).toBeVisible();
  await expect(page.getByText('Distribution kit')).toBeVisible();
  await expect(page.getByText(owner.a.username)).toBeVisible();
  await expect(page.getByText(owner.a.email)).toHaveCount(0);
  const code = (await page.locator('.code').first().textContent()) as string;
  expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}$/);
  await shots(page, 'report-page');

  // "Download PDF" downloads a PDF.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download PDF' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('report-Dacia-Duster-2017.pdf');
  const bytes = readFileSync((await download.path()) as string);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.length).toBeGreaterThan(5_000);

  // The footer's check page: genuine, the car, the odometer then, in the reader's language.
  const verify = page.getByText(/Check this report is genuine at/);
  await expect(verify).toContainText(`/v/${code}`);
  const check = await page.goto(`/v/${code}?lang=ro`);
  expect(check?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Raport autentic' })).toBeVisible();
  await expect(page.getByText('Dacia Duster · 2017')).toBeVisible();
  await expect(page.getByText('120.000 km')).toBeVisible();
  await shots(page, 'verify-page');
  // A mistyped code, through the page's own form.
  await page.getByRole('textbox').fill('abcd-efgh-jk');
  await page.getByRole('button', { name: 'Verifică' }).click();
  await expect(page).toHaveURL(/\/v\/ABCD-EFGH-JK\?lang=ro$/);
  await expect(page.getByRole('heading', { name: 'Raportul nu este autentic' })).toBeVisible();
  await shots(page, 'verify-bad');

  // The owner, signed in with the app's service worker running, also gets the server's page.
  await owner.page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await owner.page.reload();
  await owner.page.goto(url);
  await expect(owner.page.getByRole('heading', { level: 1, name: 'Vehicle history report' })).toBeVisible();

  // A listing carries its report: "Full history report" on the card opens the public page.
  await post(owner.page, '/api/marketplace/list', { vehicleId, price: 6500 });
  const buyer = await newUser(browser, 'buyer', CLIPBOARD);
  await buyer.page.goto('/marketplace');
  const card = buyer.page.getByRole('article').filter({ hasText: 'Dacia Duster' });
  const full = card.getByRole('link', { name: 'Full history report' });
  await expect(full).toBeVisible();
  const [popup] = await Promise.all([buyer.page.waitForEvent('popup'), full.click()]);
  await expect(popup).toHaveURL(/\/r\/[A-Za-z0-9_-]{43}$/);
  await expect(popup.getByRole('heading', { level: 1, name: 'Vehicle history report' })).toBeVisible();
  await expect(popup.getByText('Dacia Duster · 2017')).toBeVisible();

  // Revoked: the page is the 404 page, at once.
  await owner.page.goto(`/analytics/${vehicleId}`);
  const row = owner.page.getByRole('listitem').filter({ has: owner.page.locator(`a[href="${url}"]`) });
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(owner.page.locator(`a[href="${url}"]`)).toHaveCount(0);
  const gone = await page.goto(url);
  expect(gone?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Report not available' })).toBeVisible();
  await expect(page.getByText('Distribution kit')).toHaveCount(0);
  const pdf = await page.request.get(`${url}/report.pdf`);
  expect(pdf.status()).toBe(404);

  await reader.close();
  await buyer.context.close();
  await owner.context.close();
});
