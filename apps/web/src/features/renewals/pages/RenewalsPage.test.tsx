import type { Renewal } from '@evdra/domain';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, makeUser, mockApi, renderPage, storeUser } from '../../../test/utils';
import RenewalsPage from './RenewalsPage';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));

const rca: Renewal = {
  id: 3,
  vehicleId: 7,
  type: 'RCA',
  validFrom: '2025-01-01',
  validUntil: '2099-01-01',
  price: 150,
  note: '',
  reminderEnabled: true,
  version: 0,
};

// Issue 22: a viewer of a shared car reads its renewals but is not offered writes the server refuses.
describe('RenewalsPage of a shared car', () => {
  it.each([
    ['VIEWER', false],
    ['EDITOR', true],
    ['OWNER', true],
  ] as const)('as %s: Add, Edit and Delete shown: %s', async (access, writes) => {
    storeUser({ id: 2, username: 'bob' });
    mockApi({
      'GET /api/vehicles/7': () => jsonResponse(makeVehicle({ id: 7, ownerId: 1, access })),
      'GET /api/vehicles/7/renewals': () => jsonResponse([rca]),
      'GET /api/users/me': () => jsonResponse(makeUser({ id: 2, username: 'bob' })),
    });
    renderPage(<RenewalsPage />, { path: '/renewals/:vehicleId', route: '/renewals/7' });
    expect(await screen.findByText('Renewals of Dacia Logan')).toBeInTheDocument();
    expect(await screen.findByText(/RCA/)).toBeInTheDocument();
    expect(screen.queryAllByRole('button', { name: 'Add renewal' })).toHaveLength(writes ? 1 : 0);
    expect(screen.queryAllByRole('button', { name: /^Edit / })).toHaveLength(writes ? 1 : 0);
    expect(screen.queryAllByRole('button', { name: /^Delete / })).toHaveLength(writes ? 1 : 0);
  });
});
