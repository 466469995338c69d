import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFirstScreen } from '../src/plugins/first-screen.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered } from './helpers/client.js';

// The shape of the built index.html that matters here (apps/web/index.html after the build).
const index = `<!doctype html><html><head>
<script type="application/json" id="first-pages">[{"pattern":"/vehicles","modules":["/assets/V.js"],"styles":["/assets/V.css","/assets/shared.css"],"data":["/api/vehicles"]}]</script>
<script>early-load</script>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
<link rel="stylesheet" crossorigin href="/assets/index.css">
</head>
<body>
<div id="root"><div class="app"><main class="main"><div class="page-loading"></div></main></div></div>
</body></html>`;

const screen = {
  pattern: '/vehicles',
  html: '<div class="app"><h1>Vehicles</h1></div>',
  queries: {
    queries: [{ queryKey: ['vehicles'], state: { data: [{ model: '</script><script>alert(1)</script>' }] } }],
  },
};

describe('a first page rendered by the server', () => {
  const page = withFirstScreen(index, screen) ?? '';

  it('carries the page in the root, inert until the app renders over it, instead of the placeholder', () => {
    expect(page).toContain(
      '<div id="root"><div class="first-screen" inert aria-disabled="true"><div class="app"><h1>Vehicles</h1></div></div></div>',
    );
    expect(page).not.toContain('page-loading');
  });

  it('starts the app after the first paint, and does not have early-load fetch the page again', () => {
    expect(page).toContain('<script src="/start-app.js" data-app="/assets/index-abc.js" async></script>');
    expect(page).not.toContain('type="module"');
    expect(page).not.toContain('id="first-pages"');
    expect(page).toContain('<script>early-load</script>');
  });

  it('links the page’s own stylesheets after the app’s, as the app would', () => {
    const app = page.indexOf('/assets/index.css');
    expect(page.indexOf('<link rel="stylesheet" crossorigin href="/assets/V.css">')).toBeGreaterThan(app);
    expect(page.indexOf('<link rel="stylesheet" crossorigin href="/assets/shared.css">')).toBeGreaterThan(
      app,
    );
  });

  it('hands the data over as JSON that no text in it can close', () => {
    const data = /<script type="application\/json" id="first-screen-data">([\s\S]*?)<\/script>/.exec(
      page,
    )?.[1];
    expect(data).toBeDefined();
    expect(data).not.toContain('</script>');
    expect(JSON.parse(data ?? '')).toEqual(screen.queries);
  });

  it('is not made from an index.html of another shape (index.html then goes out as it is)', () => {
    expect(withFirstScreen(index.replace('type="module" ', ''), screen)).toBeUndefined();
    expect(withFirstScreen(index.replace('id="root"', 'id="app"'), screen)).toBeUndefined();
  });
});

// The server's side of it, with a stand-in for the web build's dist-ssr/ssr.js (the real one runs in
// the web-ssr project and e2e first-load.spec): it lists the cars the API answers for the visit's
// cookie, and fails on /fuel/13 as a broken render would.
const renderModule = `
export const init = async () => {};
export const rendersPage = (p) => p === '/vehicles' || p.startsWith('/fuel/');
export async function render(url, user, answer) {
  if (url === '/fuel/13') throw new Error('render failed');
  const cars = await (await answer('/api/vehicles')).json();
  return { pattern: '/vehicles', html: '<p>' + user.username + ': ' + cars.map((c) => c.make).join(',') + '</p>', queries: cars };
}`;

describe('pages rendered by the server, by visitor', () => {
  let dir: string;
  let t: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'evdra-ssr-'));
    mkdirSync(join(dir, 'dist', 'locales', 'en'), { recursive: true });
    mkdirSync(join(dir, 'dist-ssr'));
    writeFileSync(join(dir, 'dist', 'index.html'), index);
    writeFileSync(join(dir, 'dist', 'locales', 'en', 'translation.json'), '{}');
    writeFileSync(join(dir, 'dist-ssr', 'ssr.js'), renderModule);
    t = await createTestApp({ WEB_DIST: join(dir, 'dist') });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const car = (make: string) => ({
    make,
    model: 'Test',
    year: 2018,
    fuelType: 'DIESEL',
    registrationNumber: `B-${make}`,
    engineSize: 1.5,
    odometer: 1000,
    aiEvaluationConsent: false,
  });

  it('renders each visitor’s own cars, private to them; anyone else gets index.html', async () => {
    await registered(t.app, 'admin'); // the first account is the admin, who sees every car
    const ana = await registered(t.app, 'ana');
    const bob = await registered(t.app, 'bob');
    await ana.client.post('/api/vehicles', car('Dacia'));
    await bob.client.post('/api/vehicles', car('Skoda'));
    // The render module loads in the background at start.
    let page = await ana.client.get('/vehicles');
    for (let i = 0; i < 50 && !page.body.includes('first-screen'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      page = await ana.client.get('/vehicles');
    }
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.headers.vary).toMatch(/cookie/);
    expect(page.body).toContain(`<p>${ana.account.username}: Dacia</p>`);

    const theirs = await bob.client.get('/vehicles');
    expect(theirs.body).toContain(`<p>${bob.account.username}: Skoda</p>`);
    expect(theirs.body).not.toContain('Dacia');

    const anonymous = await t.app.inject({ url: '/vehicles' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.body).toBe(index);
    const expired = await t.app.inject({ url: '/vehicles', headers: { cookie: 'access_token=forged' } });
    expect(expired.body).toBe(index);
  });

  it('answers index.html when the render fails, or for a page it does not render', async () => {
    const { client } = await registered(t.app, 'cara');
    const failed = await client.get('/fuel/13');
    expect(failed.statusCode).toBe(200);
    expect(failed.headers['cache-control']).toBe('no-cache');
    expect(failed.body).toBe(index);
    expect((await client.get('/settings')).body).toBe(index);
  });
});
