import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * The update prompt against a real deploy: a server of our own (so the build it serves can change
 * under it) serves a copy of the build; the app's service worker installs; then "version 2" is
 * deployed into the same directory (the server looks files up per request, as after a rebuild):
 * an index.html that names its build, and a service worker whose precache lists that new
 * index.html (as a rebuild writes it). The browser finds the new worker, which waits.
 */
const PORT = Number(process.env.E2E_PORT ?? 8181) + 3;
const BASE = `http://127.0.0.1:${PORT}`;
const DIST = new URL('../dist/', import.meta.url).pathname;

let server: ChildProcess | null = null;
let root = '';

test.beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'evdra-e2e-update-'));
  cpSync(DIST, join(root, 'web'), { recursive: true });
  server = spawn(process.execPath, [new URL('../../server/dist/main.js', import.meta.url).pathname], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: join(root, 'data'),
      WEB_DIST: join(root, 'web'),
      PUBLIC_URL: BASE,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const started = Date.now();
  for (;;) {
    const up = await fetch(`${BASE}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() - started > 120_000) throw new Error('the update test server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server?.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Writes build "v2" over the served one: a marked index.html and a service worker that precaches it. */
function deployVersion2() {
  const web = join(root, 'web');
  const html = readFileSync(join(web, 'index.html'), 'utf8');
  writeFileSync(
    join(web, 'index.html'),
    html.replace('<head>', '<head><meta name="evdra-build" content="v2">'),
  );
  const sw = readFileSync(join(web, 'sw.js'), 'utf8');
  const patched = sw.replace(/(url:\s*"index\.html",\s*revision:\s*")[^"]+"/, '$1v2-index"');
  expect(patched, 'the built sw.js precaches index.html with a revision').not.toBe(sw);
  writeFileSync(join(web, 'sw.js'), patched);
}

/** The build the page was loaded from ('navigating' while Reload is replacing it). */
const build = (page: import('@playwright/test').Page) =>
  page
    .evaluate(() => document.querySelector('meta[name="evdra-build"]')?.getAttribute('content') ?? 'v1')
    .catch(() => 'navigating');

test('a new build shows "A new version is available — Reload"; Reload loads it, nothing mixed before', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${BASE}/login`);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  // Version 1's worker is installed and controls the page.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await expect(page.getByText('A new version is available — Reload')).toHaveCount(0);

  deployVersion2();
  // The browser checks for a new worker (as it does on navigations and periodically).
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
  const prompt = page.getByRole('status').filter({ hasText: 'A new version is available — Reload' });
  await expect(prompt).toBeVisible({ timeout: 30_000 });

  // Until the user chooses, every page load is still all version 1 (the old worker serves it).
  await page.reload();
  expect(await build(page)).toBe('v1');
  await expect(prompt).toBeVisible({ timeout: 30_000 });

  await prompt.getByRole('button', { name: 'Reload' }).click();
  await expect.poll(() => build(page), { timeout: 30_000 }).toBe('v2');
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await expect(page.getByText('A new version is available — Reload')).toHaveCount(0);
});
