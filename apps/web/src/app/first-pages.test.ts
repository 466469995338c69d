import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, storeUser } from '../test/utils';
import { FIRST_PAGES } from './first-pages';

type Page = { prefetch?: (client: QueryClient, params: Record<string, string>) => void };
const pages = import.meta.glob<Page>('../features/*/pages/*.tsx');

const withId = (template: string) => template.replace(':vehicleId', '7');

describe('first pages', () => {
  afterEach(() => {
    for (const el of document.head.querySelectorAll('link, #first-pages')) el.remove();
    window.history.pushState({}, '', '/');
  });

  it.each(FIRST_PAGES.map((p) => [p.pattern, p] as const))(
    '%s: the data fetched early is exactly what the page prefetches',
    async (_pattern, page) => {
      storeUser();
      const fetchMock = vi.fn(async () => jsonResponse([]));
      vi.stubGlobal('fetch', fetchMock);
      const load = pages[`../${page.module}`];
      expect(load, page.module).toBeDefined();
      const mod = await load?.();
      mod?.prefetch?.(new QueryClient(), { vehicleId: '7' });
      await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(page.data.length));
      const urls = fetchMock.mock.calls.map((call) => String((call as unknown[])[0]));
      expect(urls.sort()).toEqual(page.data.map(withId).sort());
    },
  );

  it('early-load.js starts the page’s files and, signed in, its data; ids must be numbers', () => {
    const script = readFileSync(join(__dirname, '../../public/early-load.js'), 'utf8');
    const list = document.createElement('script');
    list.type = 'application/json';
    list.id = 'first-pages';
    list.textContent = JSON.stringify([
      { pattern: '/vehicles', modules: ['/assets/V.js'], styles: [], data: ['/api/vehicles'] },
      {
        pattern: '/fuel/:vehicleId',
        modules: ['/assets/F.js', '/assets/z.js'],
        styles: ['/assets/F.css'],
        data: ['/api/vehicles/:vehicleId', '/api/fuel-consumptions/vehicle/:vehicleId'],
      },
    ]);
    document.head.appendChild(list);
    const fetchMock = vi.fn(async () => jsonResponse([]));
    vi.stubGlobal('fetch', fetchMock);
    const run = (path: string) => {
      for (const el of document.head.querySelectorAll('link')) el.remove();
      vi.stubGlobal('__evdraEarly', undefined);
      window.history.pushState({}, '', path);
      new Function(script)();
      return [...document.head.querySelectorAll('link')]
        .filter((l) => !l.getAttribute('href')?.startsWith('/locales/')) // the translation, always
        .map((l) => `${l.rel} ${l.getAttribute('href')}`);
    };

    storeUser();
    expect(run('/fuel/12')).toEqual([
      'modulepreload /assets/F.js',
      'modulepreload /assets/z.js',
      'preload /assets/F.css',
    ]);
    const early = (globalThis as { __evdraEarly?: { at: number; answers: Map<string, unknown> } })
      .__evdraEarly;
    expect(Date.now() - (early?.at ?? 0)).toBeLessThan(1000);
    expect([...(early?.answers.keys() ?? [])]).toEqual([
      '/api/vehicles/12',
      '/api/fuel-consumptions/vehicle/12',
    ]);

    // A document whose link says its first page is a photo: that image too (signed in only).
    list.textContent = JSON.stringify([
      {
        pattern: '/papers/:vehicleId/:docId',
        modules: ['/assets/D.js'],
        styles: [],
        data: ['/api/vehicles/:vehicleId/documents'],
        images: ['/api/vehicles/:vehicleId/documents/:docId/file'],
      },
    ]);
    expect(run('/papers/12/34?image=1')).toEqual([
      'modulepreload /assets/D.js',
      'preload /api/vehicles/12/documents/34/file',
    ]);
    // Once the HTML is parsed (before the app's script runs), that photo is shown in the shell.
    document.body.innerHTML =
      '<div id="root"><main class="main"><div class="page-loading"></div></main></div>';
    Object.defineProperty(document, 'readyState', { value: 'interactive', configurable: true });
    document.dispatchEvent(new Event('readystatechange'));
    const shown = document.querySelector<HTMLImageElement>('#root main img[data-early]');
    expect(shown?.getAttribute('src')).toBe('/api/vehicles/12/documents/34/file');
    expect(document.querySelector('.page-loading')).toBeNull();
    // @ts-expect-error: back to jsdom's own getter
    delete document.readyState;
    document.body.innerHTML = '';
    expect(run('/papers/12/34')).toEqual(['modulepreload /assets/D.js']);
    localStorage.removeItem('user');
    expect(run('/papers/12/34?image=1')).toEqual(['modulepreload /assets/D.js']);
    storeUser();
    list.textContent = JSON.stringify([
      { pattern: '/vehicles', modules: ['/assets/V.js'], styles: [], data: ['/api/vehicles'] },
      {
        pattern: '/fuel/:vehicleId',
        modules: ['/assets/F.js', '/assets/z.js'],
        styles: ['/assets/F.css'],
        data: ['/api/vehicles/:vehicleId', '/api/fuel-consumptions/vehicle/:vehicleId'],
      },
    ]);

    expect(run('/fuel/abc')).toEqual([]);
    expect(run('/settings')).toEqual([]);

    localStorage.removeItem('user');
    fetchMock.mockClear();
    expect(run('/vehicles/')).toEqual(['modulepreload /assets/V.js']);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('early-load.js shows the Papers screen as last rendered, only to the user it was kept for', () => {
    const script = readFileSync(join(__dirname, '../../public/early-load.js'), 'utf8');
    const list = document.createElement('script');
    list.type = 'application/json';
    list.id = 'first-pages';
    list.textContent = JSON.stringify([
      {
        pattern: '/papers',
        modules: ['/assets/P.js'],
        styles: ['/assets/P.css'],
        data: ['/api/vehicles'],
        snapshot: 'evdra.papersShell',
      },
    ]);
    document.head.appendChild(list);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse([])),
    );
    const preview = '/api/vehicles/7/documents/3/file?preview=true';
    localStorage.setItem(
      'evdra.papersShell',
      JSON.stringify({
        userId: 1,
        html: `<section class="card page-card"><h1>Papers</h1><img class="documents__preview" data-early="true" src="${preview}"></section>`,
      }),
    );
    const open = () => {
      for (const el of document.head.querySelectorAll('link')) el.remove();
      document.body.innerHTML =
        '<div id="root"><main class="main"><div class="page-loading"></div></main></div>';
      window.history.pushState({}, '', '/papers');
      new Function(script)();
      Object.defineProperty(document, 'readyState', { value: 'interactive', configurable: true });
      document.dispatchEvent(new Event('readystatechange'));
      // @ts-expect-error: back to jsdom's own getter
      delete document.readyState;
      return [...document.head.querySelectorAll('link')]
        .filter((l) => !l.getAttribute('href')?.startsWith('/locales/'))
        .map((l) => `${l.rel} ${l.getAttribute('href')}`);
    };

    // Its styles applied and its previews asked for while the head is parsed; shown once the body is.
    storeUser({ id: 1 });
    expect(open()).toEqual(['modulepreload /assets/P.js', 'stylesheet /assets/P.css', `preload ${preview}`]);
    expect(document.querySelector('#root main h1')?.textContent).toBe('Papers');
    expect(document.querySelector('#root main img[data-early]')?.getAttribute('src')).toBe(preview);
    expect(document.querySelector('.page-loading')).toBeNull();

    // Another user on this device: not their papers; the page comes with the app.
    storeUser({ id: 2 });
    expect(open()).toEqual(['modulepreload /assets/P.js', 'preload /assets/P.css']);
    expect(document.querySelector('#root main h1')).toBeNull();
    expect(document.querySelector('.page-loading')).not.toBeNull();

    // Signed out: nothing either.
    localStorage.removeItem('user');
    expect(open()).toEqual(['modulepreload /assets/P.js', 'preload /assets/P.css']);
    expect(document.querySelector('#root main h1')).toBeNull();
    localStorage.removeItem('evdra.papersShell');
    document.body.innerHTML = '';
  });
});
