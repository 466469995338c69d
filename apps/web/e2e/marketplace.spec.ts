import { expect, type Page, test } from '@playwright/test';
import { newUser } from './helpers';

const fixture = (name: string) => new URL(`../../server/test/fixtures/${name}`, import.meta.url).pathname;
/** Set SHOTS=dir to save screenshots of the marketplace at 360 and 1366 px, light and dark. */
const SHOTS = process.env.SHOTS;

/** A JSON call as the logged-in page (cookies and the CSRF token the app keeps). */
async function call(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': localStorage.getItem('token') ?? '' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, data: await res.json().catch(() => null) };
    },
    { method, path, body },
  );
}

function acceptConfirm(page: Page, text: string) {
  page.once('dialog', async (d) => {
    expect(d.message()).toBe(text);
    await d.accept();
  });
}

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const dark of [false, true]) {
    await page.evaluate((d) => {
      localStorage.setItem('darkMode', d ? 'true' : 'false');
      document.body.classList.toggle('dark-mode', d);
    }, dark);
    for (const width of [360, 1366]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await page.screenshot({
        path: `${SHOTS}/${name}-${width}-${dark ? 'dark' : 'light'}.png`,
        fullPage: false,
      });
    }
  }
  await page.evaluate(() => {
    localStorage.setItem('darkMode', 'false');
    document.body.classList.remove('dark-mode');
  });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('seller lists with photos; buyer filters, views photos, chats live; seller transfers the car with its records', async ({
  browser,
}) => {
  const seller = await newUser(browser, 'seller');
  const buyer = await newUser(browser, 'buyer');
  const make = `Skoda${Date.now().toString(36).slice(-4)}`;

  // The seller's car with a service and a fuel entry.
  const car = await call(seller.page, 'POST', '/api/vehicles', {
    make,
    model: 'Octavia',
    year: 2017,
    fuelType: 'DIESEL',
    registrationNumber: `E2E-${Date.now().toString(36).slice(-5)}`,
    engineSize: 2,
    odometer: 98_000,
    aiEvaluationConsent: true,
  });
  expect(car.status).toBe(201);
  const vehicleId = car.data.id as number;
  expect(
    (
      await call(seller.page, 'POST', '/api/revision', {
        vehicleId,
        date: '2024-04-02',
        km: 90_000,
        price: 420,
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await call(seller.page, 'POST', '/api/fuel-consumptions', {
        vehicleId,
        fuelType: 'DIESEL',
        liters: 45,
        fuelPrice: 80,
        odometer: 95_000,
        date: '2024-05-01',
      })
    ).status,
  ).toBe(201);

  // The seller lists it with two photos; a missing vehicle and price are named next to the fields.
  await seller.page.goto('/marketplace');
  await seller.page.getByRole('button', { name: 'List a Vehicle' }).click();
  const form = seller.page.getByRole('dialog', { name: 'List a Vehicle' });
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Please select a vehicle.')).toBeVisible();
  await expect(form.getByText('Enter a valid price.')).toBeVisible();
  await form.getByLabel('Vehicle').selectOption({ label: `${make} Octavia (2017)` });
  await form.getByLabel('Price (€)').fill('9500');
  await form.getByLabel('Description').fill('  One owner, full service history.  ');
  await form.locator('input[type="file"]').setInputFiles([fixture('car-gps.jpg'), fixture('wide.png')]);
  await expect(form.getByRole('img', { name: /New photo/ })).toHaveCount(2);
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form).toBeHidden();
  const sellerCard = seller.page.getByRole('article', { name: `${make} Octavia` });
  await expect(sellerCard.getByText('You listed this vehicle.')).toBeVisible();
  await expect(sellerCard.getByText('1 service')).toBeVisible();
  await expect(sellerCard.getByRole('button', { name: "I'm Interested" })).toHaveCount(0);

  // The buyer filters by make, opens the carousel and moves with the keys.
  await buyer.page.goto('/marketplace');
  await buyer.page.getByRole('button', { name: 'Filter' }).click();
  const panel = buyer.page.getByRole('dialog', { name: 'Filter listings' });
  await panel.getByLabel('Make').fill(make.toLowerCase());
  await panel.getByRole('button', { name: 'Apply' }).click();
  await expect(buyer.page.getByText('1 listing matches the filter.')).toBeVisible();
  const card = buyer.page.getByRole('article', { name: `${make} Octavia` });
  await expect(card.getByText('€9,500.00')).toBeVisible();
  await expect(card.getByText('One owner, full service history.')).toBeVisible();
  await expect(card.getByText(seller.a.username)).toBeVisible();
  // The distance keeps its unit on the same line (a no-break space).
  await expect(card.getByText(/1 service · last .* at 90,000\skm/)).toBeVisible();
  await shots(buyer.page, 'market-grid');
  await card.getByRole('button', { name: /Open the photos/ }).click();
  const carousel = buyer.page.getByRole('dialog', { name: `${make} Octavia` });
  await expect(carousel.getByText('1 / 2')).toBeVisible();
  await buyer.page.keyboard.press('ArrowRight');
  await expect(carousel.getByText('2 / 2')).toBeVisible();
  await expect(carousel.getByRole('img', { name: /Photo 2 of 2/ })).toBeVisible();
  await buyer.page.keyboard.press('Escape');
  await expect(carousel).toBeHidden();

  // Interest opens the conversation; the buyer writes.
  await card.getByRole('button', { name: "I'm Interested" }).click();
  await expect(buyer.page.getByText('Interest sent!')).toBeVisible();
  const buyerChat = buyer.page
    .getByRole('dialog', { name: 'Conversations' })
    .getByRole('region', { name: `Chat with ${seller.a.username}` });
  await buyerChat.getByLabel('Message').fill('Is the timing belt done?');
  await buyerChat.getByRole('button', { name: 'Send' }).click();
  await expect(buyerChat.getByText('Is the timing belt done?')).toBeVisible();
  await expect(buyerChat.getByRole('button', { name: 'Transfer Vehicle' })).toHaveCount(0);

  // The seller opens it and answers; the buyer sees it without reloading.
  await seller.page.getByRole('button', { name: 'Show Conversations' }).click();
  const sellerChat = seller.page.getByRole('dialog', { name: 'Conversations' });
  await sellerChat.getByRole('button', { name: new RegExp(buyer.a.username) }).click();
  const sellerThread = sellerChat.getByRole('region', { name: `Chat with ${buyer.a.username}` });
  await expect(sellerThread.getByText('Is the timing belt done?')).toBeVisible();
  await sellerThread.getByLabel('Message').fill('Yes, at 90,000 km.');
  await sellerThread.getByRole('button', { name: 'Send' }).click();
  await expect(buyerChat.getByText('Yes, at 90,000 km.')).toBeVisible({ timeout: 3000 });
  await shots(seller.page, 'market-chat');

  // The seller transfers (confirmed with the spec text).
  acceptConfirm(seller.page, 'Transfer vehicle to buyer and deactivate listing?');
  await sellerThread.getByRole('button', { name: 'Transfer Vehicle' }).click();
  await expect(sellerThread.getByText('[Vehicle transferred to buyer]')).toBeVisible();
  await expect(buyerChat.getByText('[Vehicle transferred to buyer]')).toBeVisible({ timeout: 3000 });

  // The buyer now has the car, with its records, under Vehicles.
  await buyer.page.goto('/vehicles');
  const mine = buyer.page.getByRole('article', { name: `${make} Octavia` });
  await expect(mine).toBeVisible();
  await mine.getByRole('link', { name: /Revision/i }).click();
  await expect(buyer.page.getByText('90,000', { exact: false }).first()).toBeVisible();
  await buyer.page.goto('/marketplace');
  await expect(buyer.page.getByRole('article', { name: `${make} Octavia` })).toHaveCount(0);

  await seller.context.close();
  await buyer.context.close();
});

test('owner edits and deletes a listing; conversations start empty', async ({ browser }) => {
  const seller = await newUser(browser, 'lister');
  const make = `Fiat${Date.now().toString(36).slice(-4)}`;
  const car = await call(seller.page, 'POST', '/api/vehicles', {
    make,
    model: 'Panda',
    year: 2012,
    fuelType: 'PETROL',
    registrationNumber: `E2F-${Date.now().toString(36).slice(-5)}`,
    engineSize: 1.2,
    odometer: 140_000,
  });
  await call(seller.page, 'POST', '/api/marketplace/list', { vehicleId: car.data.id, price: 3000 });
  await seller.page.goto('/marketplace');
  const showConversations = seller.page.getByRole('button', { name: 'Show Conversations' });
  await showConversations.click();
  const overlay = seller.page.getByRole('dialog', { name: 'Conversations' });
  await expect(overlay.getByText('No conversations yet.')).toBeVisible();
  // A native modal dialog: Escape closes it and focus goes back to the button that opened it.
  await seller.page.keyboard.press('Escape');
  await expect(overlay).toBeHidden();
  await expect(showConversations).toBeFocused();
  // Below 640 px it fills the screen.
  const desktop = seller.page.viewportSize();
  await seller.page.setViewportSize({ width: 360, height: 740 });
  await showConversations.click();
  await expect(overlay).toBeVisible();
  expect(await overlay.boundingBox()).toMatchObject({ x: 0, y: 0, width: 360, height: 740 });
  await overlay.getByRole('button', { name: 'Close' }).click();
  await expect(overlay).toBeHidden();
  if (desktop) await seller.page.setViewportSize(desktop);

  const card = seller.page.getByRole('article', { name: `${make} Panda` });
  await card.getByRole('button', { name: `Edit listing ${make} Panda` }).click();
  const form = seller.page.getByRole('dialog', { name: 'Edit Listing' });
  await form.getByLabel('Price (€)').fill('');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Enter a valid price.')).toBeVisible();
  await form.getByLabel('Price (€)').fill('2800');
  await form.locator('input[type="file"]').setInputFiles([fixture('tall.webp')]);
  await shots(seller.page, 'market-form');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form).toBeHidden();
  await expect(card.getByText('€2,800.00')).toBeVisible();
  await expect(card.getByRole('button', { name: /Open the photos/ })).toBeVisible();

  acceptConfirm(seller.page, 'Are you sure you want to delete this listing permanently?');
  await card.getByRole('button', { name: `Delete listing ${make} Panda` }).click();
  await expect(card).toHaveCount(0);
  await seller.context.close();
});
