import type { VehicleDocument } from '@evdra/domain';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { clearPapers, keepPapers, setPapersOffline } from '../../../lib/offline/papers';
import { PAPERS_SHELL_KEY } from '../../../lib/offline/papers-shell';
import { clearSession } from '../../../lib/session';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, makeUser, mockApi, renderPage, storeUser } from '../../../test/utils';
import PapersPage from './PapersPage';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));
vi.mock('../../../lib/offline/papers', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/offline/papers')>()),
  keepPapers: vi.fn(async () => undefined),
}));

const logan = makeVehicle({ id: 7, ownerId: 1, access: 'OWNER', make: 'Dacia', model: 'Logan' });
const rca: VehicleDocument = {
  id: 3,
  vehicleId: 7,
  type: 'MTPL_INSURANCE',
  title: 'RCA',
  number: null,
  issuedOn: null,
  expiresOn: '2027-01-09',
  notes: '',
  private: true,
  pages: [
    {
      page: 1,
      name: 'rca.jpg',
      contentType: 'image/jpeg',
      size: 1000,
      url: '/api/vehicles/7/documents/3/file',
    },
  ],
  previewUrl: '/api/vehicles/7/documents/3/file?preview=true',
  size: 1200,
  renewalId: null,
  version: 0,
  createdAt: '2026-01-10T10:00:00Z',
  updatedAt: '2026-01-10T10:00:00Z',
};

describe('the Papers screen', () => {
  it('keeps the papers on the device only once the car list is here: while it loads, the kept pages stay', async () => {
    storeUser({ id: 1 });
    let answerCars: (r: Response) => void = () => undefined;
    mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser({ country: 'RO' })),
      'GET /api/vehicles': () => new Promise<Response>((resolve) => (answerCars = resolve)),
      'GET /api/vehicles/7/documents': () => jsonResponse([rca]),
    });
    renderPage(<PapersPage />, { path: '/papers', route: '/papers' });
    await screen.findByRole('heading', { name: 'Papers' });
    // Before the list: no "keep nothing" (which would forget every kept page, e.g. on a weak signal).
    await new Promise((r) => setTimeout(r, 50));
    expect(keepPapers).not.toHaveBeenCalled();

    answerCars(jsonResponse([logan]));
    expect(await screen.findByRole('heading', { name: 'RCA' })).toBeVisible();
    await vi.waitFor(() => expect(keepPapers).toHaveBeenCalledTimes(1));
    expect(keepPapers).toHaveBeenCalledWith([{ vehicleId: 7, docs: [rca] }]);
    // The first screen's previews are asked for at once, not when scrolled into view.
    expect(document.querySelector('img.documents__preview')?.getAttribute('loading')).toBe('eager');
  });

  it("keeps its first screen for the next open's shell: the first car's first four cards, for this user only", async () => {
    storeUser({ id: 1 });
    localStorage.removeItem('evdra.papersOffline');
    const sandero = makeVehicle({ id: 8, ownerId: 1, access: 'OWNER', make: 'Dacia', model: 'Sandero' });
    const docs = [1, 2, 3, 4, 5].map((n) => ({
      ...rca,
      id: n,
      title: `Paper ${n}`,
      previewUrl: `/api/vehicles/7/documents/${n}/file?preview=true`,
    }));
    mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser({ country: 'RO' })),
      'GET /api/vehicles': () => jsonResponse([logan, sandero]),
      'GET /api/vehicles/7/documents': () => jsonResponse(docs),
      'GET /api/vehicles/8/documents': () =>
        jsonResponse([{ ...rca, id: 9, vehicleId: 8, title: 'Sandero RCA' }]),
    });
    renderPage(<PapersPage />, { path: '/papers', route: '/papers' });
    await screen.findByRole('heading', { name: 'Sandero RCA' });
    await vi.waitFor(() => expect(localStorage.getItem(PAPERS_SHELL_KEY)).not.toBeNull());
    const kept = JSON.parse(localStorage.getItem(PAPERS_SHELL_KEY) ?? '{}') as {
      userId: number;
      html: string;
    };
    expect(kept.userId).toBe(1);
    const shell = document.createElement('div');
    shell.innerHTML = kept.html;
    expect(shell.querySelector('h1')?.textContent).toBe('Papers');
    // The latest of the type first (the highest id, same expiry), then the others; the fifth left out.
    expect([...shell.querySelectorAll('h3')].map((h) => h.textContent)).toEqual([
      'Paper 5',
      'Paper 1',
      'Paper 2',
      'Paper 3',
    ]);
    const first = shell.querySelector('img.documents__preview');
    expect(first?.getAttribute('src')).toBe('/api/vehicles/7/documents/5/file?preview=true');
    expect(first?.getAttribute('data-early')).toBe('true');
    expect(shell.querySelector('a.documents__open')?.getAttribute('href')).toBe('/papers/7/5?image=1');

    // Logout, the wallet turned off: forgotten at once.
    clearSession();
    expect(localStorage.getItem(PAPERS_SHELL_KEY)).toBeNull();
    localStorage.setItem(PAPERS_SHELL_KEY, kept.html);
    await clearPapers();
    expect(localStorage.getItem(PAPERS_SHELL_KEY)).toBeNull();
  });

  it('with the wallet off, keeps no first screen either', async () => {
    storeUser({ id: 1 });
    await setPapersOffline(false);
    mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser({ country: 'RO' })),
      'GET /api/vehicles': () => jsonResponse([logan]),
      'GET /api/vehicles/7/documents': () => jsonResponse([rca]),
    });
    renderPage(<PapersPage />, { path: '/papers', route: '/papers' });
    expect(await screen.findByRole('heading', { name: 'RCA' })).toBeVisible();
    await new Promise((r) => setTimeout(r, 50));
    expect(localStorage.getItem(PAPERS_SHELL_KEY)).toBeNull();
    localStorage.removeItem('evdra.papersOffline');
  });
});
