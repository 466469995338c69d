import { type Browser, type BrowserContextOptions, expect, type Page } from '@playwright/test';

let n = 0;
/** A fresh account's details, unique per run. */
export function account(prefix: string) {
  n += 1;
  const username = `${prefix}${n}${Date.now().toString(36).slice(-4)}`;
  return { username, email: `${username}@example.com`, password: 'correct horse 1' };
}

/**
 * Waits until the app runs on the page: a page the server rendered shows before the app's script
 * has loaded, and stays inert (and unable to work offline) until the app has rendered over it.
 */
export async function appRunning(page: Page) {
  await expect(page.locator('.first-screen')).toHaveCount(0);
}

/** Registers through the form; the app signs the new account in and lands on the home page. */
export async function register(page: Page, a: ReturnType<typeof account>) {
  await page.goto('/register');
  await page.getByLabel('Username').fill(a.username);
  await page.getByLabel('Email').fill(a.email);
  await page.getByLabel('Password', { exact: true }).fill(a.password);
  await page.getByLabel('Confirm password').fill(a.password);
  await page.getByLabel('I accept the GDPR agreement').check();
  const alert = page.waitForEvent('dialog').then(async (d) => {
    const text = d.message();
    await d.accept();
    return text;
  });
  await page.getByRole('button', { name: 'Register' }).click();
  expect(await alert).toBe('Account created successfully!');
  await expect(page.getByText(`Logged in as ${a.username}`)).toBeVisible();
}

const LOGIN_LABELS = {
  en: { username: 'Username or email', password: 'Password', submit: 'Login' },
  ro: { username: 'Nume de utilizator sau e-mail', password: 'Parolă', submit: 'Autentificare' },
};

/** Logs in through the form, in whatever language the device shows. */
export async function login(page: Page, a: { username: string; password: string }, lang: 'en' | 'ro' = 'en') {
  const l = LOGIN_LABELS[lang];
  await page.goto('/login');
  await page.getByLabel(l.username).fill(a.username);
  await page.getByLabel(l.password, { exact: true }).fill(a.password);
  await page.getByRole('main').getByRole('button', { name: l.submit, exact: true }).click();
}

export async function logout(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/**
 * POST as the logged-in user of `page` (its session cookie and CSRF token, a fresh Idempotency-Key);
 * fails the test unless the answer is 2xx. Answers the JSON body (null for 204).
 */
export async function post(page: Page, path: string, data: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token') ?? '');
  const res = await page.request.post(path, {
    data,
    headers: { 'X-CSRF-Token': token, 'Idempotency-Key': `e2e-${Date.now()}-${Math.random()}` },
  });
  expect(res.ok(), `${path} → ${res.status()} ${await res.text()}`).toBe(true);
  return res.status() === 204 ? null : res.json();
}

/** Registers a vehicle through the API with a registration number of its own; answers it. */
export function postVehicle(
  page: Page,
  car: {
    make: string;
    model: string;
    year: number;
    fuelType: string;
    engineSize: number;
    odometer: number;
    aiEvaluationConsent?: boolean;
  },
) {
  const registrationNumber = `E2E-${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 100)}`;
  return post(page, '/api/vehicles', { ...car, registrationNumber });
}

type NewCar = {
  make: string;
  model: string;
  year: string;
  fuelType: string;
  registration: string;
  engineSize: string;
  odometer: string;
  /** Optional; left empty when not given. */
  vin?: string;
};

/** Fills the open "Add vehicle" dialog as a user would (with a photo file, if given) and saves it. */
export async function fillVehicleForm(page: Page, car: NewCar, photo?: string) {
  const dialog = page.getByRole('dialog', { name: 'Add vehicle' });
  await dialog.getByLabel('Make').fill(car.make);
  await dialog.getByLabel('Model').fill(car.model);
  await dialog.getByLabel('Year').fill(car.year);
  await dialog.getByLabel('Fuel type').selectOption(car.fuelType);
  await dialog.getByLabel('Registration number').fill(car.registration);
  await dialog.getByLabel('Engine size (L)').fill(car.engineSize);
  await dialog.getByLabel('Odometer (km)').fill(car.odometer);
  if (car.vin !== undefined) await dialog.getByLabel('VIN (optional)').fill(car.vin);
  if (photo) {
    await dialog.locator('input[type="file"]').setInputFiles(photo);
    await expect(dialog.getByRole('img', { name: 'Photo preview' })).toBeVisible();
  }
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * A new account with one car added through the form, on that car's fuel screen (the receipt specs'
 * start). The registration number ends in `tag`, unique per run.
 */
export async function newDriverOnFuelScreen(
  page: Page,
  prefix: string,
  car: Omit<NewCar, 'registration'> & { tag: string },
) {
  await register(page, account(prefix));
  await page.goto('/vehicles');
  await page.getByRole('button', { name: 'Add new' }).click();
  const { tag, ...fields } = car;
  await fillVehicleForm(page, { ...fields, registration: `B-${Date.now().toString().slice(-3)}-${tag}` });
  await page.getByRole('article').getByRole('link', { name: 'Fuel', exact: true }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`${car.make} ${car.model}`) })).toBeVisible();
}

/** A new account in a browser context of its own (a second person beside the first). */
export async function newUser(browser: Browser, prefix: string, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const a = account(prefix);
  await register(page, a);
  return { context, page, a };
}
