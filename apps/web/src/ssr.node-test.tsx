// The web-ssr project (vitest.config.ts): Node, as on the server.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, render } from './ssr';

const locale = (lng: string) =>
  JSON.parse(readFileSync(new URL(`../public/locales/${lng}/translation.json`, import.meta.url), 'utf8'));

const user = (language: 'en' | 'ro') => ({
  id: 1,
  username: 'ana',
  email: 'ana@example.com',
  role: 'USER' as const,
  language,
  offlineLogin: 'true' as const,
});

const car = (make: string) => ({
  id: 1,
  make,
  model: 'Test',
  year: 2018,
  fuelType: 'DIESEL',
  registrationNumber: 'B-1-ABC',
  engineSize: 1.5,
  odometer: 120_000,
  aiEvaluationConsent: false,
  ownerId: 1,
  ownerUsername: 'ana',
  photoUrl: null,
  version: 1,
});

/** The API as the visit's cookie would see it: its own cars. */
const api = (cars: unknown[]) => async (path: string) =>
  new Response(JSON.stringify(path === '/api/vehicles' ? cars : []), {
    headers: { 'content-type': 'application/json' },
  });

describe('the server’s render of a first page', () => {
  beforeAll(() => init({ en: { translation: locale('en') }, ro: { translation: locale('ro') } }));

  it('renders overlapping visits each in its own language, with its own data', async () => {
    const [ro, en] = await Promise.all([
      render('/vehicles', user('ro'), api([car('Dacia')])),
      render('/vehicles', user('en'), api([car('Skoda')])),
    ]);
    expect(ro?.html).toContain('<h1 class="card__title">Vehicule</h1>');
    expect(ro?.html).toContain('Dacia Test');
    expect(ro?.html).not.toContain('Skoda');
    expect(en?.html).toContain('<h1 class="card__title">Vehicles</h1>');
    expect(en?.html).toContain('Skoda Test');
    expect(en?.html).not.toContain('Dacia');
    // The data the app's first render starts from.
    expect(JSON.stringify(en?.queries)).toContain('"make":"Skoda"');
  });

  it('renders only the first pages that show data', async () => {
    expect(await render('/settings', user('en'), api([]))).toBeUndefined();
    expect(await render('/', user('en'), api([]))).toBeUndefined();
    // The papers are started early but opened from the installed app's index.html, never rendered here.
    expect(await render('/papers', user('en'), api([]))).toBeUndefined();
    expect(await render('/papers/7/3?image=1', user('en'), api([]))).toBeUndefined();
  });
});
