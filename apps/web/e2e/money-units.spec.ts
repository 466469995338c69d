import { createRequire } from 'node:module';
import { expect, type Page, test } from '@playwright/test';
import { newDriverOnFuelScreen } from './helpers';
import { screenshots } from './shots';

// Issue 50: money in the currency each driver pays in, measures in the units they read. A Romanian
// driver types a fill-up in lei and reads lei; an American types gallons, miles and dollars and
// reads MPG. Stored metric, shown as typed.

const PHONE = { width: 360, height: 800 };

/** The server's pdfjs-dist (the web app has none): the report's text as the API tests read it. */
const serverRequire = createRequire(new URL('../../server/package.json', import.meta.url));

type PdfJs = {
  getDocument: (options: object) => {
    promise: Promise<{
      numPages: number;
      getPage: (n: number) => Promise<{ getTextContent: () => Promise<{ items: object[] }> }>;
      destroy: () => Promise<void>;
    }>;
  };
};

/** Every page's text of a PDF, any run of white space as one space. */
async function pdfText(bytes: Buffer): Promise<string> {
  const { getDocument } = (await import(serverRequire.resolve('pdfjs-dist/legacy/build/pdf.mjs'))) as PdfJs;
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
    standardFontDataUrl: `${serverRequire.resolve('pdfjs-dist/package.json').replace(/package\.json$/, '')}standard_fonts/`,
  }).promise;
  const parts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    for (const item of content.items as { str?: string; hasEOL?: boolean }[])
      if (item.str !== undefined) parts.push(item.str, item.hasEOL ? '\n' : ' ');
  }
  await doc.destroy();
  return parts.join('').replace(/[\s\u00a0\u202f]+/g, ' ');
}

/**
 * Keeps every text the page draws on a canvas (a chart's axis ticks and tooltips are drawn, not in
 * the DOM): window.__drawn, from the next navigation on.
 */
async function recordCanvasText(page: Page) {
  await page.addInitScript(() => {
    const drawn: string[] = [];
    (window as unknown as { __drawn: string[] }).__drawn = drawn;
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (
      text: string,
      x: number,
      y: number,
      max?: number,
    ) {
      drawn.push(String(text));
      return max === undefined ? fillText.call(this, text, x, y) : fillText.call(this, text, x, y, max);
    };
  });
}
const drawnTexts = (page: Page) => page.evaluate(() => (window as unknown as { __drawn: string[] }).__drawn);

/** A record card on the fuel screen, by a figure it shows. */
const cardWith = (page: Page, text: string | RegExp) =>
  page.locator('.record-card').filter({ hasText: text });

test('a Romanian driver at 360 px types a fill-up in lei and reads lei on its card, the chart and the report', async ({
  page,
}) => {
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

  // The chart: its axis in whole lei, its tooltip the fill-up's 289,90 lei (drawn on the canvas).
  const vehicleId = Number(/\/(\d+)(?:[/?#]|$)/.exec(new URL(fuelScreen).pathname)?.[1]);
  expect(vehicleId).toBeGreaterThan(0);
  await recordCanvasText(page);
  await page.goto(`/analytics/${vehicleId}`);
  const chart = page.getByRole('img', { name: 'Cost total pe lună' });
  await chart.scrollIntoViewIfNeeded();
  await expect
    .poll(async () => (await drawnTexts(page)).some((s) => /^\d[\d.]* lei$/.test(s.replace(/\s/g, ' '))))
    .toBe(true);
  await chart.hover();
  await expect
    .poll(async () => (await drawnTexts(page)).map((s) => s.replace(/\s/g, ' ')).join(' | '))
    .toContain('Cost total: 289,90 lei');
  expect((await drawnTexts(page)).join(' ')).not.toContain('€');
  await screenshots(page, 'money-units-ron-chart');

  // The PDF report, in Romanian: the fill-up's lei, never euros.
  const res = await page.request.get(`/api/vehicles/${vehicleId}/report.pdf?lang=ro`);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  const text = await pdfText(await res.body());
  expect(text).toContain('289,90 lei');
  expect(text).not.toContain('€');
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
