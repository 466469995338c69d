import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { deleteDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDb, DB_NAME } from '../../lib/offline/db';
import { refreshSyncState } from '../../lib/offline/engine';
import { addIssue, listIssues } from '../../lib/offline/queue';
import type { SyncIssue } from '../../lib/offline/types';
import { renderPage, storeUser } from '../../test/utils';
import { SyncCenter } from './SyncCenter';

/** The sync centre showing `issue`, stored as the sync engine stores a refused write. */
async function show(issue: SyncIssue) {
  storeUser();
  await addIssue(issue);
  await refreshSyncState();
  return renderPage(<SyncCenter />);
}

afterEach(async () => {
  closeDb();
  await deleteDB(DB_NAME);
  await refreshSyncState();
});

/** A fill-up queued offline that the server refused with `code`. */
const refused = (code: string, message: string): SyncIssue => ({
  kind: 'failed',
  userId: 1,
  code,
  message,
  at: '2025-05-02T10:00:00.000Z',
  entry: {
    type: 'create',
    kind: 'fuel',
    payload: {
      vehicleId: 7,
      fuelType: 'DIESEL',
      liters: 41.5,
      fuelPrice: 297.35,
      odometer: null,
      date: '2025-05-02',
    },
    targetId: -1,
    idempotencyKey: 'k',
    baseVersion: null,
    queuedAt: '2025-05-02T09:00:00.000Z',
    userId: 1,
    attempts: 0,
    nextAttemptAt: 0,
  },
});

// Issue 22: a write queued offline on a shared car whose access changed meanwhile is not lost
// silently: the sync centre says why and keeps what was typed until the user dismisses it.
describe('SyncCenter: refused writes', () => {
  it('a viewer now: says so, lists what was not saved in the forms’ words, and Dismiss drops it', async () => {
    const { user } = await show(refused('FORBIDDEN', 'You can only view this vehicle.'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Your offline change to Fuel entry 2025-05-02 was not saved: you can now only view this car (the owner changed your access).',
    );
    await user.click(within(alert).getByText('What was not saved'));
    const facts = within(alert)
      .getAllByRole('term')
      .map((dt) => `${dt.textContent}=${dt.nextSibling?.textContent}`);
    expect(facts).toEqual(['Fuel type=Diesel', 'Litres=41.5', 'Total paid=297.35', 'Date=2025-05-02']);
    // Kept until the user dismisses it; then gone for good.
    expect(await listIssues(1)).toHaveLength(1);
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(await listIssues(1)).toEqual([]);
  });

  it('access ended: says the car is no longer shared', async () => {
    await show(refused('NOT_FOUND', 'Vehicle not found.'));
    expect(await screen.findByRole('alert')).toHaveTextContent('you no longer have access to this car');
  });

  it('any other refusal: the server’s message', async () => {
    await show(refused('VALIDATION_FAILED', 'Litres must be positive.'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'could not be saved: Litres must be positive.',
    );
    expect(screen.queryByText('What was not saved')).toBeNull();
  });
});
