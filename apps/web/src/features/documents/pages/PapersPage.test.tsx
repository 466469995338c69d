import type { VehicleDocument } from '@evdra/domain';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { keepPapers } from '../../../lib/offline/papers';
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
});
