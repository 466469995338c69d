import { expect, test } from '@playwright/test';
import { account, postVehicle, register } from './helpers';

// The first screen on a cold load: painted from index.html before any script, and its data asked
// for by public/early-load.js beside the app's script, once (the app uses that answer).
test('a cold load of a car’s fuel screen asks for its data once, and shows the shell before the app', async ({
  page,
}) => {
  await register(page, account('first'));
  const car = await postVehicle(page, {
    make: 'Dacia',
    model: 'Jogger',
    year: 2023,
    fuelType: 'PETROL',
    engineSize: 1,
    odometer: 20_000,
  });

  const asked: string[] = [];
  const scripts: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/')) asked.push(path);
    if (path.endsWith('.js')) scripts.push(path);
  });
  // The app's own script held back: what shows is index.html's shell.
  await page.route('**/assets/index-*.js', (route) => route.abort());
  await page.goto(`/fuel/${car.id}`);
  await expect(page.locator('header .brand')).toHaveText('Evdra');
  await page.unroute('**/assets/index-*.js');

  asked.length = 0;
  scripts.length = 0;
  await page.reload();
  await expect(page.getByRole('heading', { name: /Dacia Jogger/ })).toBeVisible();
  await expect(page.getByText('No fuel records for this period.')).toBeVisible();
  // early-load, inlined in index.html, ran under the server's CSP (allowed by its hash) and asked.
  expect(
    await page.evaluate(() => 'answers' in ((window as { __evdraEarly?: object }).__evdraEarly ?? {})),
  ).toBe(true);
  // It runs before the stylesheet, which would hold it back until it has arrived.
  const html = await (await page.request.get(`/fuel/${car.id}`)).text();
  expect(html.indexOf("getElementById('first-pages')")).toBeGreaterThan(0);
  expect(html.indexOf("getElementById('first-pages')")).toBeLessThan(html.indexOf('rel="stylesheet"'));
  const count = (path: string) => asked.filter((p) => p === path).length;
  expect(count(`/api/vehicles/${car.id}`)).toBe(1);
  expect(count(`/api/fuel-consumptions/vehicle/${car.id}`)).toBe(1);

  // The list has no form: the forms' rules (zod and the schemas) load with the first dialog.
  const schemas = (s: string) => /\/assets\/(domain|zod)-/.test(s);
  expect(scripts.filter(schemas)).toEqual([]);
  await page.getByRole('button', { name: 'Add Manually' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Fuel Entry' });
  await expect(dialog.getByLabel('Litres')).toBeVisible();
  expect(scripts.some(schemas)).toBe(true);
});

// A first render that suspends commits the loading placeholder, and React then holds the page back
// for 300 ms: the app renders once the translation, the page's chunk and its data are here.
test('a cold load of the vehicles screen shows the cars with the app’s first render, no placeholder in between', async ({
  page,
}) => {
  await register(page, account('firstrender'));
  await postVehicle(page, {
    make: 'Skoda',
    model: 'Fabia',
    year: 2019,
    fuelType: 'DIESEL',
    engineSize: 1.4,
    odometer: 80_000,
  });
  await page.addInitScript(() => {
    // index.html's own placeholder is the first; any other one is a fallback React committed.
    const placeholders = new Set<Element>();
    (window as { __placeholders?: Set<Element> }).__placeholders = placeholders;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('.page-loading')) placeholders.add(el);
    }).observe(document, { subtree: true, childList: true });
  });
  await page.goto('/vehicles');
  await expect(page.getByRole('heading', { name: /Skoda Fabia/ })).toBeVisible();
  expect(await page.evaluate(() => (window as { __placeholders?: Set<Element> }).__placeholders?.size)).toBe(
    1,
  );
});
