import { expect, test } from '@playwright/test';
import { account, login, logout, register } from './helpers';

test('accounts: first user is admin, language and dark mode stick, admin suspends a user who then cannot log in', async ({
  page,
}) => {
  const admin = account('admin');
  const user = account('driver');

  // The first account ever becomes the administrator.
  await register(page, admin);
  await expect(page.getByRole('link', { name: 'Manage Users' })).toBeVisible();
  await logout(page);

  // A second account is a plain user; it logs in through the login form.
  await register(page, user);
  await expect(page.getByRole('link', { name: 'My Analytics' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Manage Users' })).toHaveCount(0);
  await logout(page);
  await login(page, user);
  await expect(page.getByText(`Logged in as ${user.username}`)).toBeVisible();

  // Switching the language to Romanian re-translates the app at once and is saved with the profile.
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await page.getByLabel('Language').selectOption('ro');
  await expect(page.getByRole('button', { name: 'Salvează' })).toBeVisible();
  await page.getByRole('button', { name: 'Salvează' }).click();
  await expect(page.getByText('Setările au fost salvate.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Vehicule' }).first()).toBeVisible();

  // Dark mode survives a reload.
  await page.getByLabel('Mod întunecat').check();
  await expect(page.locator('body')).toHaveClass(/dark-mode/);
  await page.reload();
  await expect(page.locator('body')).toHaveClass(/dark-mode/);
  await expect(page.getByLabel('Mod întunecat')).toBeChecked();

  // A non-admin opening the admin page lands on the home page.
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/$/);

  // The admin suspends that user. The device keeps Romanian after logout; the admin's own
  // language (English) applies once they log in.
  await page.getByRole('button', { name: 'Deconectare' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await login(page, admin, 'ro');
  await expect(page.getByText(`Logged in as ${admin.username}`)).toBeVisible();
  await page.goto('/admin/users');
  await page.getByRole('button', { name: `Edit ${user.username}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user' });
  await dialog.getByLabel('Status').selectOption('Suspended');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(user.username) })).toContainText('Suspended');
  await logout(page);

  // The suspended user cannot log in.
  await login(page, user);
  await expect(page.getByText('❌ Login failed.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});
