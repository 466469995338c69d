import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO_PORT } from '../playwright.config';
import { COLOUR_RULES, seriousViolations } from './axe';
import { account, login, postVehicle, register } from './helpers';

/*
 * Every route of the app (src/app/routes.tsx; a route added there fails this test until it is
 * listed here), logged out, as a user and as an admin, at 360 px and 1366 px, light and dark, in
 * English and Romanian, on the demo data: axe-core finds no serious or critical violation.
 * Fast on a busy machine: one logged-in page per role, reused; language and mode are set once per
 * test (one reload), routes are opened by the app's own router (no reload), the width is changed in
 * place, axe is put in the page once per document. Dark mode only swaps colours (CSS variables under
 * the body class), so in dark mode the colour rules run; in light mode every rule runs.
 */
const RECEIPT = new URL('../../server/test/fixtures/receipts/fuel-en.jpg', import.meta.url).pathname;
const DEMO = `http://127.0.0.1:${DEMO_PORT}`;
const PASSWORD = 'evdra-demo-1';
const WIDTHS = [
  { width: 360, height: 780 },
  { width: 1366, height: 900 },
];
/** The route patterns of routes.tsx (`/` for the index route). */
function declaredRoutes(): string[] {
  const source = readFileSync(new URL('../src/app/routes.tsx', import.meta.url), 'utf8');
  const paths = [...source.matchAll(/<Route\s+path="([^"]+)"/g)].map((m) => `/${m[1]}`);
  return source.includes('<Route index') ? ['/', ...paths] : paths;
}

type Visit = { pattern: string; path: string };
const guestVisits: Visit[] = [
  { pattern: '/', path: '/' },
  { pattern: '/login', path: '/login' },
  { pattern: '/register', path: '/register' },
  { pattern: '/forgot-password', path: '/forgot-password' },
  { pattern: '/reset-password', path: '/reset-password?token=0123456789abcdef' },
  { pattern: '/gdpr', path: '/gdpr' },
  // Where a sign-in with the identity provider lands (issue 53): with none under way, each says so.
  { pattern: '/oidc/complete', path: '/oidc/complete' },
  { pattern: '/oidc/link', path: '/oidc/link' },
  { pattern: '/oidc/refused', path: '/oidc/refused?reason=not-registered' },
  { pattern: '/*', path: '/no-such-page' },
];
const userVisits = (id: string): Visit[] => [
  { pattern: '/', path: '/' },
  { pattern: '/vehicles', path: '/vehicles' },
  { pattern: '/settings', path: '/settings' },
  { pattern: '/marketplace', path: '/marketplace' },
  { pattern: '/ai-chat', path: '/ai-chat' },
  { pattern: '/analytics/user', path: '/analytics/user' },
  { pattern: '/analytics', path: '/analytics' },
  { pattern: '/analytics/:vehicleId', path: `/analytics/${id}` },
  ...['insurance', 'expenses', 'fuel', 'revision'].flatMap((kind) => [
    { pattern: `/${kind}`, path: `/${kind}` },
    { pattern: `/${kind}/:vehicleId`, path: `/${kind}/${id}` },
  ]),
  { pattern: '/renewals/:vehicleId', path: `/renewals/${id}` },
  { pattern: '/papers', path: '/papers' },
  { pattern: '/documents/:vehicleId', path: `/documents/${id}` },
  // The demo car has no papers: the page of one that is not there.
  { pattern: '/papers/:vehicleId/:docId', path: `/papers/${id}/999999` },
  { pattern: '/gdpr', path: '/gdpr' },
  { pattern: '/*', path: '/no-such-page' },
];
const adminVisits: Visit[] = [
  { pattern: '/admin/users', path: '/admin/users' },
  { pattern: '/analytics/admin', path: '/analytics/admin' },
  { pattern: '/vehicles', path: '/vehicles' },
  { pattern: '/fuel', path: '/fuel' },
];

/** Opens `path` with the app's router, as a click on a link would (the app is not reloaded). */
async function open(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
}

/** Every visit at both widths in one language and mode; collects the violations instead of stopping at the first. */
async function sweep(
  page: Page,
  role: string,
  visits: Visit[],
  language: 'en' | 'ro',
  mode: 'light' | 'dark',
) {
  await page.evaluate(
    ([l, dark]) => {
      localStorage.setItem('language', l);
      localStorage.setItem('darkMode', dark);
    },
    [language, String(mode === 'dark')] as const,
  );
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  const found: string[] = [];
  for (const { path } of visits) {
    await open(page, path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.locator('.loading-bar, .page-loading')).toHaveCount(0, { timeout: 15_000 });
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      for (const v of await seriousViolations(page, mode === 'dark' ? COLOUR_RULES : undefined))
        found.push(`${role} ${path} ${language} ${mode} ${size.width}px: ${v}`);
    }
  }
  expect(found).toEqual([]);
}

test('the spec visits every route of routes.tsx', () => {
  const visited = new Set([...guestVisits, ...userVisits('1'), ...adminVisits].map((v) => v.pattern));
  expect(declaredRoutes().filter((r) => !visited.has(r))).toEqual([]);
});

const ROLES = {
  guest: async (_page: Page) => guestVisits,
  user: async (page: Page) => {
    await login(page, { username: 'john', password: PASSWORD });
    await expect(page.getByText('Logged in as john')).toBeVisible();
    await page.goto('/vehicles');
    const href = await page.locator('a[href^="/insurance/"]').first().getAttribute('href');
    const id = href?.split('/').pop() ?? '';
    expect(id).toMatch(/^\d+$/);
    return userVisits(id);
  },
  admin: async (page: Page) => {
    await login(page, { username: 'demo_admin', password: PASSWORD });
    await expect(page.getByText('Logged in as demo_admin')).toBeVisible();
    return adminVisits;
  },
};

for (const [role, signIn] of Object.entries(ROLES)) {
  test.describe(`axe, ${role === 'guest' ? 'logged out' : `as ${role === 'user' ? 'a user' : 'an admin'}`}`, () => {
    test.describe.configure({ mode: 'serial' });
    test.setTimeout(300_000);
    let page: Page;
    let visits: Visit[];
    test.beforeAll(async ({ browser }) => {
      const context = await browser.newContext({ baseURL: DEMO, viewport: WIDTHS[1] });
      page = await context.newPage();
      await page.goto('/');
      visits = await signIn(page);
    });
    test.afterAll(() => page.context().close());
    for (const language of ['en', 'ro'] as const)
      for (const mode of ['light', 'dark'] as const)
        test(`no serious or critical violation on any screen, ${language}, ${mode}, 360 and 1366 px`, () =>
          sweep(page, role, visits, language, mode));
  });
}

/** Forms showing their errors (a state no route shows on arrival), light and dark, at both widths. */
test('forms showing their errors: no serious or critical violation', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: DEMO, viewport: WIDTHS[0] });
  const page = await context.newPage();
  const found: string[] = [];
  const sweepModes = async (name: string) => {
    for (const mode of ['light', 'dark'] as const) {
      await page.evaluate((dark) => {
        document.body.classList.toggle('dark-mode', dark);
      }, mode === 'dark');
      // Colours change with a transition: axe must see where they end, not a frame in between.
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        for (const v of await seriousViolations(page)) found.push(`${name} ${mode} ${size.width}px: ${v}`);
      }
    }
  };
  await page.goto('/register');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Username is required.')).toBeVisible();
  await sweepModes('register');

  await login(page, { username: 'john', password: PASSWORD });
  await expect(page.getByText('Logged in as john')).toBeVisible();
  await page.goto('/vehicles');
  await page.getByRole('button', { name: 'Add new' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add vehicle' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Make is required.')).toBeVisible();
  await sweepModes('vehicle form');
  await context.close();
  expect(found).toEqual([]);
});

/*
 * Keyboard only (Tab, Shift+Tab, Enter, Space, arrows, typing): add a fill-up, scan a receipt, list
 * a car and ask the virtual mechanic, each control reached by Tab showing a visible focus ring. On the empty
 * server, as a new user whose vehicle is made through the API (the file runs after accounts.spec,
 * whose first account must be the first of the server: it becomes the admin).
 */
async function focusRing(target: Locator) {
  return target.evaluate((el) => {
    const s = getComputedStyle(el);
    const outline = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) >= 2;
    return el.matches(':focus-visible') && (outline || s.boxShadow !== 'none');
  });
}

/** Presses Tab until `target` has the focus (failing after `max` presses), then checks its focus ring. */
async function tabTo(page: Page, target: Locator, max = 60) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const focused = await target
      .evaluate((el) => el === document.activeElement, undefined, { timeout: 2_000 })
      .catch(() => false);
    if (focused) {
      expect(await focusRing(target), `focus ring on ${target}`).toBe(true);
      return;
    }
  }
  throw new Error(`${target} not reached with ${max} Tabs`);
}

test('keyboard only: add a fill-up, list a car, ask the virtual mechanic; focus always visible', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await register(page, account('keys'));
  const car = await postVehicle(page, {
    make: 'Opel',
    model: 'Astra',
    year: 2016,
    fuelType: 'PETROL',
    engineSize: 1.4,
    odometer: 98_000,
    aiEvaluationConsent: true,
  });

  // A fill-up: the dialog opens on Enter, the date is today, the fields are typed, Save by Enter.
  await page.goto(`/fuel/${car.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Opel Astra');
  await tabTo(page, page.getByRole('button', { name: 'Add Manually' }));
  await page.keyboard.press('Enter');
  const fuel = page.getByRole('dialog', { name: 'Add Fuel Entry' });
  await expect(fuel).toBeVisible();
  for (const [label, value] of [
    ['Litres', '41.5'],
    ['Total paid (€)', '66.40'],
    ['Odometer (km)', '98650'],
  ] as const) {
    await tabTo(page, fuel.getByLabel(label, { exact: true }));
    await page.keyboard.type(value);
  }
  await tabTo(page, fuel.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await expect(fuel).toBeHidden();
  await expect(page.getByText('€66.40').first()).toBeVisible();

  // List the car: choose it with the arrow keys, type price and description, submit with Space.
  await page.goto('/marketplace');
  await tabTo(page, page.getByRole('button', { name: 'List a Vehicle' }));
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'List a Vehicle' });
  await expect(form).toBeVisible();
  const vehicle = form.getByLabel('Vehicle');
  await tabTo(page, vehicle);
  if ((await vehicle.inputValue()) !== String(car.id)) await page.keyboard.press('ArrowDown');
  await expect(vehicle).toHaveValue(String(car.id));
  await tabTo(page, form.getByLabel('Price (€)'));
  await page.keyboard.type('7900');
  await tabTo(page, form.getByLabel('Description'));
  await page.keyboard.type('Kept in a garage, every service at the dealer.');
  await tabTo(page, form.getByRole('button', { name: 'Submit' }));
  await page.keyboard.press('Space');
  await expect(form).toBeHidden();
  await expect(page.getByRole('article', { name: 'Opel Astra' })).toBeVisible();

  // The virtual mechanic: type a question, send it with Enter, then another with the Send button.
  await page.goto('/ai-chat');
  const question = page.getByRole('textbox', { name: 'Your question' });
  await tabTo(page, question);
  await page.keyboard.type('How much did I pay for fuel?');
  await page.keyboard.press('Enter');
  const conversation = page.getByRole('list', { name: 'Conversation' });
  await expect(conversation.locator(':scope > li')).toHaveCount(2);
  await tabTo(page, question);
  await page.keyboard.type('My brakes are grinding, is it safe?');
  await tabTo(page, page.getByRole('button', { name: 'Send' }));
  await page.keyboard.press('Space');
  await expect(conversation.locator(':scope > li')).toHaveCount(4);
});

test('keyboard only: scan a receipt, correct a field, confirm it; focus always visible', async ({ page }) => {
  test.setTimeout(120_000);
  await register(page, account('keyscan'));
  // The photographed receipt of receipts.spec: 49.43 L of diesel, £76.72 in all, odometer 144,936 km.
  const car = await postVehicle(page, {
    make: 'Dacia',
    model: 'Duster',
    year: 2020,
    fuelType: 'DIESEL',
    engineSize: 1.5,
    odometer: 143_000,
  });
  await page.goto(`/fuel/${car.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Dacia Duster');

  // Enter on the button opens the system's file picker (the hidden input is not in the Tab order).
  await tabTo(page, page.getByRole('button', { name: 'Upload Receipt' }));
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
  await chooser.setFiles(RECEIPT);
  const dialog = page.getByRole('dialog', { name: 'Confirm OCR Data' });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByLabel('Litres')).toHaveValue('49.43');

  // The receipt is in pounds and the driver pays in euros: they type the rate (none is known here).
  await tabTo(page, dialog.getByLabel('Exchange rate'));
  await page.keyboard.type('1.17');
  const odometer = dialog.getByLabel('Odometer (km)');
  await tabTo(page, odometer);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('144500');
  await tabTo(page, dialog.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('£76.72').first()).toBeVisible();
  await expect(page.getByText('144,500').first()).toBeVisible();
});
