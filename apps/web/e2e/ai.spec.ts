import { expect, type Page, test } from '@playwright/test';
import { account, post, postVehicle, register } from './helpers';

/**
 * The AI against the real server and its built-in provider: evaluate a vehicle from its card, open
 * the performance summary, and talk to the virtual mechanic (own data, knowledge base, clear).
 * With AI_SHOTS=dir it also saves screenshots at 360 and 1366 px, light and dark.
 */

const daysFromToday = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

async function shots(page: Page, name: string) {
  const dir = process.env.AI_SHOTS;
  if (!dir) return;
  for (const dark of [false, true]) {
    await page.evaluate((on) => document.body.classList.toggle('dark-mode', on), dark);
    for (const width of [360, 1366]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await page.screenshot({
        path: `${dir}/${name}-${width}-${dark ? 'dark' : 'light'}.png`,
        fullPage: true,
      });
    }
  }
  await page.evaluate(() => document.body.classList.remove('dark-mode'));
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('AI: evaluate from the card, performance summary, and the virtual mechanic', async ({ page }) => {
  await register(page, account('ai'));
  const car = await postVehicle(page, {
    make: 'Skoda',
    model: 'Fabia',
    year: 2018,
    fuelType: 'PETROL',
    engineSize: 1.0,
    odometer: 60_000,
    aiEvaluationConsent: true,
  });
  const fills = [
    [-100, 60_000, 38, 57],
    [-70, 60_600, 36, 54],
    [-40, 61_200, 33, 51.15],
  ] as const;
  for (const [d, odometer, liters, fuelPrice] of fills)
    await post(page, '/api/fuel-consumptions', {
      vehicleId: car.id,
      fuelType: 'PETROL',
      liters,
      fuelPrice,
      odometer,
      date: daysFromToday(d),
    });
  await post(page, '/api/revision', { vehicleId: car.id, date: daysFromToday(-30), km: 61_000, price: 240 });
  await post(page, '/api/insurance', {
    vehicleId: car.id,
    provider: 'Omniasig',
    startDate: daysFromToday(-60),
    endDate: daysFromToday(305),
    price: 210,
  });

  // Evaluate AI on the card: the score and its reason replace the button.
  await page.goto('/vehicles');
  const card = page.getByRole('article', { name: 'Skoda Fabia' });
  await card.getByRole('button', { name: 'Evaluate AI' }).click();
  await expect(card.getByText(/^AI score: \d+\/10$/)).toBeVisible();
  await expect(card.getByText(/Real consumption 5\.75 L\/100 km/)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Evaluate AI' })).toHaveCount(0);
  await shots(page, 'vehicles');

  // The analytics AI summary: hidden, then shown with the totals from the records; hide again.
  await page.goto(`/analytics/${car.id}`);
  await page.getByRole('button', { name: 'AI summary' }).click();
  const panel = page.getByRole('region', { name: 'AI summary' });
  await expect(panel).toContainText('The Skoda Fabia has cost €612.15 in total');
  await shots(page, 'analytics');
  await panel.getByRole('button', { name: 'Hide' }).click();
  await expect(panel).toHaveCount(0);

  // The fuel AI summary.
  await page.goto(`/fuel/${car.id}`);
  await page.getByRole('button', { name: 'AI summary' }).click();
  await expect(page.getByRole('region', { name: 'AI summary' })).toContainText(
    'Average consumption from full tank to full tank: 5.75 L/100 km',
  );

  // The virtual mechanic: own data, then the knowledge base; the history survives a reload.
  await page.goto('/ai-chat');
  const input = page.getByRole('textbox', { name: 'Your question' });
  await input.fill('When does my insurance end?');
  await input.press('Enter');
  const conversation = page.getByRole('list', { name: 'Conversation' });
  await expect(conversation).toContainText('Skoda Fabia: insured with Omniasig until');
  await input.fill('My brakes are grinding, is it safe?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(conversation.locator('strong', { hasText: /stop driving/ })).toBeVisible();
  await page.reload();
  // Two questions and two answers (answers may hold lists of their own).
  await expect(page.getByRole('list', { name: 'Conversation' }).locator(':scope > li')).toHaveCount(4);
  await shots(page, 'chat');

  page.once('dialog', (d) => {
    expect(d.message()).toBe('Delete the whole chat history?');
    void d.accept();
  });
  await page.getByRole('button', { name: 'Clear history' }).click();
  await expect(page.getByText('No messages yet. Try one of these:')).toBeVisible();
  await shots(page, 'chat-empty');
});
