import { expect, test } from '@playwright/test';
import { account, login, logout, post, register } from './helpers';
import { screenshots } from './shots';

// Issue 22: the owner shares a car with an editor, who logs a fill-up the owner then sees "by" them.
test('an owner shares a car with an editor, whose fill-up the owner then sees by them; the editor then leaves it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const editor = account('editor');
  const owner = account('owner');
  // The owner registers first: on a fresh server the first account is the administrator, who sees
  // every car with the owner's rights, which would hide what an editor sees.
  await register(page, owner);
  await logout(page);
  await register(page, editor);
  await logout(page);
  await login(page, owner);
  await expect(page.getByText(`Logged in as ${owner.username}`)).toBeVisible();
  const car = await post(page, '/api/vehicles', {
    make: 'Skoda',
    model: 'Fabia',
    year: 2017,
    fuelType: 'PETROL',
    registrationNumber: 'B-22-SHR',
    engineSize: 1.0,
    odometer: 90_000,
    aiEvaluationConsent: false,
  });

  // The owner shares it from the card: by username, as an editor.
  await page.goto('/vehicles');
  const card = page.getByRole('article', { name: 'Skoda Fabia' });
  await card.getByRole('button', { name: 'Share Skoda Fabia' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share Skoda Fabia' });
  await expect(dialog.getByText('Not shared with anyone yet.')).toBeVisible();
  await dialog.getByLabel('Username or email').fill('nobody-like-this');
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(dialog.getByText('No user has this username or email address.')).toBeVisible();
  await dialog.getByLabel('Username or email').fill(editor.email);
  await dialog.getByLabel('Role', { exact: true }).selectOption('EDITOR');
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(dialog.getByRole('list', { name: 'People with access' })).toContainText(editor.username);
  await expect(dialog.getByLabel(`Role of ${editor.username}`)).toHaveValue('EDITOR');
  await screenshots(page, 'share-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await logout(page);

  // The editor sees the car as shared, with their role, and no owner controls.
  await login(page, editor);
  await expect(page.getByText(`Logged in as ${editor.username}`)).toBeVisible();
  await page.goto('/vehicles');
  const shared = page.getByRole('article', { name: 'Skoda Fabia' });
  await expect(shared.getByText(`Shared by ${owner.username}`)).toBeVisible();
  await expect(shared.getByText('Editor', { exact: true })).toBeVisible();
  await expect(shared.getByRole('button', { name: /Edit|Delete|Share|Import/ })).toHaveCount(0);
  await screenshots(page, 'shared-card');

  // They log a fill-up on it.
  await page.goto(`/fuel/${car.id}`);
  await page.getByRole('button', { name: 'Add Manually' }).click();
  const add = page.getByRole('dialog', { name: 'Add Fuel Entry' });
  await add.getByLabel('Date').fill('2025-04-10');
  await add.getByLabel('Litres').fill('35');
  await add.getByLabel('Total paid (€)').fill('245');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText('€245.00').first()).toBeVisible();
  await logout(page);

  // The owner sees it, by the editor; and a notification told the editor about the share.
  await login(page, owner);
  await expect(page.getByText(`Logged in as ${owner.username}`)).toBeVisible();
  await page.goto(`/fuel/${car.id}`);
  await expect(page.getByText('€245.00').first()).toBeVisible();
  await expect(page.getByText(`by ${editor.username}`).first()).toBeVisible();
  await logout(page);

  // The editor leaves the car (after confirming): it is gone from their list, and the owner is told.
  await login(page, editor);
  await expect(page.getByText(`Logged in as ${editor.username}`)).toBeVisible();
  await page.goto('/vehicles');
  await shared.getByRole('button', { name: 'Leave Skoda Fabia' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave this shared car?' });
  await expect(leave).toContainText(`You will no longer see the Skoda Fabia of ${owner.username}`);
  await screenshots(page, 'leave-dialog', { fullPage: false });
  await leave.getByRole('button', { name: 'Yes, leave' }).click();
  await expect(leave).toBeHidden();
  await expect(page.getByRole('article', { name: 'Skoda Fabia' })).toHaveCount(0);
  expect((await page.request.get(`/api/vehicles/${car.id}`)).status()).toBe(404);
  await logout(page);
  await login(page, owner);
  await expect(page.getByText(`Logged in as ${owner.username}`)).toBeVisible();
  const inbox = await page.request.get('/api/notifications');
  expect(JSON.stringify(await inbox.json())).toContain(`${editor.username} left the Skoda Fabia (2017)`);
});
