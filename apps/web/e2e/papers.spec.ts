import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { account, appRunning, post, register } from './helpers';
import { screenshots } from './shots';

// Issue 52: the car's papers with no signal. An RCA photo uploaded through the form makes a renewal
// (its expiry reminder); the Papers screen keeps the latest of each type on the device, and with the
// network gone it still shows the page.

const PHOTO = fileURLToPath(new URL('../../server/test/fixtures/car-gps.jpg', import.meta.url));

/** The calendar day `k` days from today, YYYY-MM-DD. */
const day = (k: number) => new Date(Date.now() + k * 86_400_000).toISOString().slice(0, 10);

/** How many responses the offline wallet keeps (0 before it exists). */
const kept = (page: Page) =>
  page.evaluate(async () =>
    (await caches.has('evdra-papers')) ? (await (await caches.open('evdra-papers')).keys()).length : 0,
  );

/** Whether the image has loaded (a broken one has no natural width). */
const loaded = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

test('upload an RCA photo, see its expiry reminder, then open Papers and the page offline', async ({
  page,
  context,
}) => {
  const a = account('papers');
  await register(page, a);
  const car = (await post(page, '/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2018,
    fuelType: 'PETROL',
    registrationNumber: `B-52-${Date.now().toString(36).slice(-3).toUpperCase()}`,
    engineSize: 1.2,
    odometer: 80000,
    aiEvaluationConsent: false,
  })) as { id: number };

  // Home → Papers → the car's papers → Add document.
  await page.goto('/');
  await appRunning(page);
  await page.getByRole('link', { name: 'Papers' }).click();
  await page.getByRole('link', { name: 'Add or manage papers' }).click();
  await page.getByRole('button', { name: 'Add document' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Type').selectOption('MTPL_INSURANCE');
  await dialog.getByLabel('Number', { exact: true }).fill('RO/25/778899');
  await dialog.getByLabel('Expires on').fill(day(20));
  await dialog.getByLabel(/^Pages/).setInputFiles(PHOTO);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Liability insurance' })).toBeVisible();

  // Its expiry is a renewal: the reminder is on, 20 days left.
  await page.goto(`/renewals/${car.id}`);
  const renewal = page.getByRole('listitem').filter({ hasText: 'Insurance' });
  await expect(renewal.getByText('20 days left')).toBeVisible();
  await expect(renewal.getByLabel('Reminder on')).toBeVisible();

  // Online, the Papers screen keeps the latest of each type (its list, page and preview).
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.goto('/papers');
  await expect(page.getByRole('heading', { name: 'Liability insurance' })).toBeVisible();
  await expect.poll(() => kept(page)).toBe(3);

  // No signal: the Papers screen and the document's page still open.
  await context.setOffline(true);
  await page.goto('/papers');
  await expect(page.getByRole('heading', { name: 'Liability insurance' })).toBeVisible();
  await expect.poll(() => loaded(page, '.documents__preview')).toBe(true);
  await page.getByRole('link', { name: 'Open Liability insurance' }).click();
  await expect(page.getByRole('img', { name: 'Page 1 of Liability insurance' })).toBeVisible();
  await expect.poll(() => loaded(page, '.document__page')).toBe(true);

  // At a roadside stop: offline, on a mid phone (CPU slowed 4×), how long the first page takes to show.
  // A second DevTools session makes the next page's navigator.onLine true again while Playwright's
  // offline still cuts every request: this one says "offline" too (bench/papers.ts found it), so the
  // app really opens with no signal, and the papers it kept are still there.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: true,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const url = page.url();
  const started = Date.now();
  // From the commit on (waiting for "load" first would count the rest of the app's start-up too);
  // watched from inside the page (a probe from here waits for the busy main thread each time).
  await page.goto(url, { waitUntil: 'commit' });
  const pageMs = await shownAt(page, '.document__page');
  const ms = Date.now() - started;
  expect(pageMs).toBeGreaterThan(0);
  await expect.poll(() => loaded(page, '.document__page')).toBe(true);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await expect(page.getByRole('img', { name: 'Page 1 of Liability insurance' })).toBeVisible();
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  // The first tap's screen the same way: Papers' first preview (bench:papers has the real figures;
  // this bound only says it is there in seconds, not minutes: 3,040 ms was seen at a load of 22).
  await page.goto('/papers', { waitUntil: 'commit' });
  const papersMs = await shownAt(page, '.documents__preview');
  expect(papersMs).toBeGreaterThan(0);
  expect(papersMs).toBeLessThan(6000);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  // And the Papers screen, opened with no signal after it, still has every kept page.
  await page.goto('/papers');
  await expect.poll(() => loaded(page, '.documents__preview')).toBe(true);
  expect(await kept(page)).toBe(3);
  test.info().annotations.push({ type: 'first page offline, CPU 4×', description: `${ms} ms` });
  test
    .info()
    .annotations.push({ type: 'Papers, first preview offline, CPU 4×', description: `${papersMs} ms` });
  console.log(`papers: first page visible offline with CPU 4x in ${ms} ms (page clock: ${pageMs} ms)`);
  console.log(`papers: the Papers screen's first preview offline with CPU 4x in ${papersMs} ms (page clock)`);
  await context.setOffline(false);
});

/**
 * When (the page's clock, from the navigation) the first `selector` image is on screen: loaded,
 * decoded, and the next frame begun; -1 if not within 20 s. Watched from inside the page (a probe
 * from here waits for the busy main thread each time).
 */
function shownAt(page: Page, selector: string): Promise<number> {
  return page.evaluate(
    (sel) =>
      new Promise<number>((resolve) => {
        const check = () => {
          const img = document.querySelector<HTMLImageElement>(sel);
          if (img?.complete && img.naturalWidth > 0)
            img.decode().then(
              () => requestAnimationFrame(() => resolve(Math.round(performance.now()))),
              () => resolve(-1),
            );
          else if (performance.now() > 20_000) resolve(-1);
          else requestAnimationFrame(check);
        };
        check();
      }),
    selector,
  );
}

/** Adds a document through the API as the page's user (multipart: `data` + one page). */
async function addDocument(page: Page, vehicleId: number, data: Record<string, unknown>) {
  const base64 = readFileSync(PHOTO).toString('base64');
  const status = await page.evaluate(
    async ({ vehicleId, data, base64 }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const form = new FormData();
      form.append('data', new Blob([JSON.stringify(data)], { type: 'application/json' }));
      form.append('files', new Blob([bytes], { type: 'image/jpeg' }), 'talon.jpg');
      const res = await fetch(`/api/vehicles/${vehicleId}/documents`, {
        method: 'POST',
        body: form,
        headers: { 'X-CSRF-Token': localStorage.getItem('token') ?? '' },
      });
      return res.status;
    },
    { vehicleId, data, base64 },
  );
  expect(status).toBe(201);
}

for (const [lang, save, saved, add] of [
  ['ro', 'Salvează', 'Setările au fost salvate.', 'Adaugă act'],
  ['es', 'Guardar', 'Ajustes guardados.', 'Añadir documento'],
] as const) {
  test(`Papers at 360 px in ${lang}: the list, a car's papers and the form (screenshots to look at)`, async ({
    page,
  }) => {
    await register(page, account(`shots${lang}`));
    const car = (await post(page, '/api/vehicles', {
      make: 'Dacia',
      model: 'Duster',
      year: 2016,
      fuelType: 'DIESEL',
      registrationNumber: `${lang.toUpperCase()}-52-${Date.now().toString(36).slice(-3).toUpperCase()}`,
      engineSize: 1.5,
      odometer: 120000,
      aiEvaluationConsent: false,
    })) as { id: number };
    await page.goto('/settings');
    await page.getByLabel('Language').selectOption(lang);
    await page.getByRole('button', { name: save, exact: true }).click();
    await expect(page.getByText(saved)).toBeVisible();
    await addDocument(page, car.id, {
      type: 'REGISTRATION',
      title: lang === 'ro' ? 'Talon' : 'Permiso',
      number: 'A-123456',
    });
    await addDocument(page, car.id, { type: 'MTPL_INSURANCE', title: 'RCA / Seguro', expiresOn: day(40) });
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto('/papers');
    await expect(
      page.getByRole('heading', { name: 'Talon' }).or(page.getByRole('heading', { name: 'Permiso' })),
    ).toBeVisible();
    await expect.poll(() => loaded(page, '.documents__preview')).toBe(true);
    await screenshots(page, `papers-${lang}`);
    await page.goto(`/documents/${car.id}`);
    await page.getByRole('button', { name: add }).click();
    await screenshots(page, `papers-form-${lang}`, { fullPage: false });
  });
}
