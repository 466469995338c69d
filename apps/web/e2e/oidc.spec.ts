import { type ChildProcess, spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { startTestProvider } from '../../server/test/helpers/oidc';

/*
 * Sign in with OpenID Connect in Chromium (issue 53): a server of its own (password login off,
 * auto-register on, an admin group, provider logout) and a real OpenID provider (oidc-provider),
 * both on loopback. The provider's sign-in page signs in as the person the test names.
 */
const BASE = Number(process.env.E2E_PORT ?? 8181);
const APP_PORT = BASE + 2;
const PROVIDER_PORT = BASE + 3;
const APP = `http://127.0.0.1:${APP_PORT}`;

let provider: Awaited<ReturnType<typeof startTestProvider>>;
let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  provider = await startTestProvider({ appUrl: APP, port: PROVIDER_PORT });
  server = spawn(process.execPath, ['apps/web/e2e/serve.mjs'], {
    cwd: new URL('../../..', import.meta.url).pathname,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(APP_PORT),
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'evdra',
      OIDC_CLIENT_SECRET: 'evdra-secret-0123456789abcdef',
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_BUTTON_TEXT: 'Test IdP',
      OIDC_AUTO_REGISTER: 'true',
      OIDC_ADMIN_GROUP: 'evdra-admins',
      OIDC_END_SESSION: 'true',
      PASSWORD_LOGIN: 'false',
    },
  });
  for (let i = 0; ; i++) {
    const up = await fetch(`${APP}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 200) throw new Error('the OIDC e2e server did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await provider?.close();
});

test('sign in with the identity provider: an account at first sign-in, admin by group, logout ends the provider session; a cancelled sign-in is explained', async ({
  page,
}) => {
  provider.accounts.set('e2e-alice', {
    email: 'alice@idp.example',
    email_verified: true,
    preferred_username: 'alice',
    groups: ['evdra-admins'],
  });
  provider.signInAs('e2e-alice');

  // Password login is off: only the provider's button.
  await page.goto(`${APP}/login`);
  const button = page.getByRole('link', { name: 'Sign in with Test IdP' });
  await expect(button).toBeVisible();
  await expect(page.getByLabel('Username or email')).toHaveCount(0);

  // Through the provider and back, signed in with the app's own session.
  await button.click();
  await expect(page).toHaveURL(`${APP}/`);
  await expect(page.getByText('Logged in as alice')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Manage Users' }).first()).toBeVisible();
  // The session works for the API too (cookies and CSRF token kept).
  await page.goto(`${APP}/settings`);
  await expect(page.getByLabel('Email')).toHaveValue('alice@idp.example');

  // Logout also ends the provider's session, then comes back to the login page.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/`));
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(`${APP}/login`);
  await expect(page.getByRole('link', { name: 'Sign in with Test IdP' })).toBeVisible();

  // Cancelled at the provider: the refusal page says so.
  provider.signInAs('');
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await expect(page).toHaveURL(/\/oidc\/refused\?reason=denied$/);
  await expect(page.getByText('The sign-in was cancelled at your identity provider.')).toBeVisible();
});
