import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadVehicles } from '../../../lib/offline-db';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import VehiclesPage from './VehiclesPage';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));

// Issue 22: a car shared with the user says by whom and as what, and shows only what the role may
// do; the owner shares from the card.
const own = makeVehicle({ access: 'OWNER' });
const viewed = makeVehicle({
  id: 8,
  make: 'Volkswagen',
  model: 'Golf',
  registrationNumber: 'CJ-01-XYZ',
  ownerId: 2,
  ownerUsername: 'bob',
  access: 'VIEWER',
  aiScore: 7,
  aiScoreReason: 'Well kept',
});
const edited = makeVehicle({
  id: 9,
  make: 'Mini',
  model: 'Cooper',
  registrationNumber: 'IS-09-MIN',
  ownerId: 3,
  ownerUsername: 'carol',
  access: 'EDITOR',
});

describe('VehiclesPage: shared cars', () => {
  beforeEach(() => vi.mocked(loadVehicles).mockResolvedValue([]));

  it('shows "Shared by" and the role on shared cards, and no owner controls on them', async () => {
    storeUser();
    mockApi({ 'GET /api/vehicles': () => jsonResponse([own, viewed, edited]) });
    renderPage(<VehiclesPage />, { path: '/vehicles', route: '/vehicles' });
    const golf = await screen.findByRole('article', { name: 'Volkswagen Golf' });
    expect(within(golf).getByText('Shared by bob')).toBeInTheDocument();
    expect(within(golf).getByText('Viewer')).toBeInTheDocument();
    expect(within(golf).getByText(/Well kept/)).toBeInTheDocument();
    for (const name of [/^Edit/, /^Delete/, /^Share/, /^Import/, /Evaluate|Re-evaluate/])
      expect(within(golf).queryByRole('button', { name })).toBeNull();
    const mini = screen.getByRole('article', { name: 'Mini Cooper' });
    expect(within(mini).getByText('Shared by carol')).toBeInTheDocument();
    expect(within(mini).getByText('Editor')).toBeInTheDocument();
    for (const name of [/^Edit/, /^Delete/, /^Share/, /^Import/])
      expect(within(mini).queryByRole('button', { name })).toBeNull();
    expect(within(mini).getByRole('button', { name: 'Leave Mini Cooper' })).toBeInTheDocument();
    const logan = screen.getByRole('article', { name: 'Dacia Logan' });
    expect(within(logan).queryByText(/Shared by/)).toBeNull();
    expect(within(logan).getByRole('button', { name: 'Share Dacia Logan' })).toBeInTheDocument();
    expect(within(logan).getByRole('button', { name: /^Edit/ })).toBeInTheDocument();
    expect(within(logan).queryByRole('button', { name: /^Leave/ })).toBeNull();
  }, 30_000);

  it('a grantee leaves a shared car after confirming; Cancel keeps it', async () => {
    storeUser();
    let shared = true;
    const deleted: string[] = [];
    mockApi({
      'GET /api/vehicles': () => jsonResponse(shared ? [own, viewed] : [own]),
      'DELETE /api/vehicles/8/shares/1': (url) => {
        deleted.push(url);
        shared = false;
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    renderPage(<VehiclesPage />, { path: '/vehicles', route: '/vehicles' });
    await user.click(await screen.findByRole('button', { name: 'Leave Volkswagen Golf' }));
    let dialog = await screen.findByRole('dialog', { name: 'Leave this shared car?' });
    expect(dialog).toHaveTextContent('You will no longer see the Volkswagen Golf of bob');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deleted).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Leave Volkswagen Golf' }));
    dialog = await screen.findByRole('dialog', { name: 'Leave this shared car?' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, leave' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Volkswagen Golf' })).toBeNull());
    expect(deleted).toHaveLength(1);
    expect(screen.getByRole('article', { name: 'Dacia Logan' })).toBeInTheDocument();
  }, 30_000);

  it('says so when leaving fails, and keeps the car', async () => {
    storeUser();
    mockApi({
      'GET /api/vehicles': () => jsonResponse([viewed]),
      'DELETE /api/vehicles/8/shares/1': () =>
        jsonResponse({ code: 'NOT_FOUND', message: 'Share not found.' }, 404),
    });
    const user = userEvent.setup();
    renderPage(<VehiclesPage />, { path: '/vehicles', route: '/vehicles' });
    await user.click(await screen.findByRole('button', { name: 'Leave Volkswagen Golf' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave this shared car?' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, leave' }));
    expect(await screen.findByText(/Could not leave the car:/)).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Volkswagen Golf' })).toBeInTheDocument();
  }, 30_000);

  it('shares from the card: lists people, says when a user is unknown, and adds one with a role', async () => {
    storeUser();
    const shares = [
      { vehicleId: 7, userId: 5, username: 'dan', role: 'VIEWER', createdAt: '2025-01-01T00:00:00.000Z' },
    ];
    const sent: unknown[] = [];
    mockApi({
      'GET /api/vehicles': () => jsonResponse([own]),
      'GET /api/vehicles/7/shares': () => jsonResponse(shares),
      'POST /api/vehicles/7/shares': (_url, init) => {
        const body = JSON.parse(String(init.body));
        sent.push(body);
        if (body.username === 'nobody')
          return jsonResponse(
            { code: 'NOT_FOUND', message: 'No user has this username or email address.' },
            404,
          );
        const added = {
          vehicleId: 7,
          userId: 6,
          username: 'erin',
          role: body.role,
          createdAt: '2025-01-02T00:00:00.000Z',
        };
        shares.push(added);
        return jsonResponse(added, 201);
      },
    });
    const user = userEvent.setup();
    renderPage(<VehiclesPage />, { path: '/vehicles', route: '/vehicles' });
    await user.click(await screen.findByRole('button', { name: 'Share Dacia Logan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share Dacia Logan' });
    const people = await within(dialog).findByRole('list', { name: 'People with access' });
    expect(within(people).getByText('dan')).toBeInTheDocument();
    expect(within(people).getByLabelText('Role of dan')).toHaveValue('VIEWER');
    await user.type(within(dialog).getByLabelText('Username or email'), 'nobody');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(
      await within(dialog).findByText('No user has this username or email address.'),
    ).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Username or email'));
    await user.type(within(dialog).getByLabelText('Username or email'), 'erin@example.com');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'VIEWER');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(within(dialog).getByText('erin')).toBeInTheDocument());
    expect(sent.at(-1)).toEqual({ username: 'erin@example.com', role: 'VIEWER' });
  }, 30_000);
});
