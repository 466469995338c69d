import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadVehicles, saveVehicles } from '../../../lib/offline-db';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import VehiclesPage from './VehiclesPage';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));

const logan = makeVehicle();
const golf = makeVehicle({
  id: 8,
  make: 'Volkswagen',
  model: 'Golf',
  year: 2012,
  fuelType: 'PETROL',
  registrationNumber: 'CJ-01-XYZ',
  vin: 'WVWZZZ1KZCW000001',
  odometer: 210000,
  aiScore: 7,
  aiScoreReason: 'Well kept',
});
const mini = makeVehicle({
  id: 9,
  make: 'Mini',
  model: 'Cooper',
  fuelType: 'PETROL',
  registrationNumber: 'IS-09-MIN',
  odometer: 50000,
  aiEvaluationConsent: false,
});

function renderVehicles(routes: Parameters<typeof mockApi>[0] = {}, vehicles = [logan, golf, mini]) {
  storeUser();
  const fetchMock = mockApi({ 'GET /api/vehicles': () => jsonResponse(vehicles), ...routes });
  return { fetchMock, ...renderPage(<VehiclesPage />, { path: '/vehicles', route: '/vehicles' }) };
}

const cardNames = () => screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'));

describe('VehiclesPage', () => {
  beforeEach(() => {
    vi.mocked(loadVehicles).mockResolvedValue([]);
    vi.mocked(saveVehicles).mockClear();
  });

  it('shows every field of each vehicle, the AI score or Evaluate AI, and the sub-page links', async () => {
    renderVehicles();
    const card = await screen.findByRole('article', { name: 'Dacia Logan' });
    expect(within(card).getByText('Diesel')).toBeInTheDocument();
    expect(within(card).getByText('B-123-ABC')).toBeInTheDocument();
    expect(within(card).getByText('1.5 L')).toBeInTheDocument();
    expect(within(card).getByText('120,000 km')).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'Consent given' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Evaluate AI' })).toBeEnabled();
    for (const [name, href] of [
      ['Analytics', '/analytics/7'],
      ['Insurance', '/insurance/7'],
      ['Expenses', '/expenses/7'],
      ['Fuel', '/fuel/7'],
      ['Revisions', '/revision/7'],
    ])
      expect(within(card).getByRole('link', { name })).toHaveAttribute('href', href);
    const golfCard = screen.getByRole('article', { name: 'Volkswagen Golf' });
    expect(within(golfCard).getByText('AI score: 7/10')).toBeInTheDocument();
    expect(within(golfCard).getByText(/Well kept/)).toBeInTheDocument();
    expect(within(golfCard).queryByRole('button', { name: 'Evaluate AI' })).not.toBeInTheDocument();
    expect(within(golfCard).getByRole('button', { name: 'Re-evaluate' })).toBeInTheDocument();
    const miniCard = screen.getByRole('article', { name: 'Mini Cooper' });
    expect(within(miniCard).getByRole('img', { name: 'No consent' })).toBeInTheDocument();
    expect(within(miniCard).queryByRole('button', { name: 'Evaluate AI' })).not.toBeInTheDocument();
    expect(within(card).queryByText('Owner id')).not.toBeInTheDocument();
    await waitFor(() => expect(saveVehicles).toHaveBeenCalledWith([logan, golf, mini]));
  });

  it("shows no engine size on an electric car's card, and an electric car's own when it has one", async () => {
    const zoe = makeVehicle({ id: 10, make: 'Renault', model: 'Zoe', fuelType: 'ELECTRIC', engineSize: 0 });
    const hybrid = makeVehicle({
      id: 11,
      make: 'BMW',
      model: 'i3 REx',
      fuelType: 'ELECTRIC',
      engineSize: 0.6,
    });
    renderVehicles({}, [logan, zoe, hybrid]);
    const zoeCard = await screen.findByRole('article', { name: 'Renault Zoe' });
    expect(within(zoeCard).getByText('Electric')).toBeInTheDocument();
    expect(within(zoeCard).queryByText('Engine size')).not.toBeInTheDocument();
    expect(within(zoeCard).queryByText('0.0 L')).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('article', { name: 'BMW i3 REx' })).getByText('0.6 L'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('article', { name: 'Dacia Logan' })).getByText('Engine size'),
    ).toBeInTheDocument();
  });

  it('shows the VIN on a card only when the vehicle has one', async () => {
    renderVehicles();
    const golfCard = await screen.findByRole('article', { name: 'Volkswagen Golf' });
    expect(within(golfCard).getByText('WVWZZZ1KZCW000001').closest('p')).toHaveTextContent(
      'VIN WVWZZZ1KZCW000001',
    );
    const loganCard = screen.getByRole('article', { name: 'Dacia Logan' });
    expect(within(loganCard).queryByText(/VIN/)).not.toBeInTheDocument();
  });

  it('evaluates a vehicle: busy button, then the score and reason on the card', async () => {
    let release: () => void = () => {};
    const scored = { ...logan, aiScore: 8, aiScoreReason: 'Serviced every 12,000 km on average.' };
    let evaluated = false;
    const { user, fetchMock } = renderVehicles({
      'GET /api/vehicles': () => jsonResponse(evaluated ? [scored, golf, mini] : [logan, golf, mini]),
      'POST /api/vehicles/7/evaluate-ai': async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        evaluated = true;
        return jsonResponse(scored);
      },
    });
    const card = await screen.findByRole('article', { name: 'Dacia Logan' });
    await user.click(within(card).getByRole('button', { name: 'Evaluate AI' }));
    const busy = await within(card).findByRole('button', { name: 'Evaluating…' });
    expect(busy).toBeDisabled();
    release();
    expect(await within(card).findByText('AI score: 8/10')).toBeInTheDocument();
    expect(within(card).getByText(/Serviced every 12,000 km on average/)).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/evaluate-ai'));
    expect(call?.[1]?.headers).toMatchObject({ 'X-CSRF-Token': 'csrf-1' });
  });

  it("alerts 'AI Evaluation failed: {message}' when the evaluation fails", async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user } = renderVehicles({
      'POST /api/vehicles/7/evaluate-ai': () =>
        jsonResponse({ code: 'AI_CONSENT_REQUIRED', message: 'Turn on AI evaluation consent first.' }, 409),
    });
    const card = await screen.findByRole('article', { name: 'Dacia Logan' });
    await user.click(within(card).getByRole('button', { name: 'Evaluate AI' }));
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith('AI Evaluation failed: Turn on AI evaluation consent first.'),
    );
    expect(within(card).getByRole('button', { name: 'Evaluate AI' })).toBeEnabled();
    alert.mockRestore();
  });

  it('shows owner id and username to admins', async () => {
    storeUser({ role: 'ADMIN' });
    mockApi({
      'GET /api/vehicles': () => jsonResponse([makeVehicle({ ownerId: 42, ownerUsername: 'bob' })]),
    });
    renderPage(<VehiclesPage />, { path: '/vehicles', route: '/vehicles' });
    const card = await screen.findByRole('article', { name: 'Dacia Logan' });
    expect(within(card).getByText('Owner id').nextSibling).toHaveTextContent('42');
    expect(within(card).getByText('bob')).toBeInTheDocument();
  });

  it('a miles reader filters by a max odometer in miles and reopens the panel on the miles typed', async () => {
    storeUser({ distanceUnit: 'mi' });
    mockApi({ 'GET /api/vehicles': () => jsonResponse([logan, mini]) });
    const { user } = renderPage(<VehiclesPage />, { path: '/vehicles', route: '/vehicles' });
    await screen.findByRole('article', { name: 'Dacia Logan' });
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    let panel = screen.getByRole('dialog', { name: 'Filter vehicles' });
    // 40,000 mi is 64,374 km: the Mini (50,000 km) is under it, the Logan (210,000 km) is not.
    await user.type(within(panel).getByLabelText('Max odometer (mi)'), '40000');
    await user.click(within(panel).getByRole('button', { name: 'Apply' }));
    expect(cardNames()).toEqual(['Mini Cooper']);
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    panel = screen.getByRole('dialog', { name: 'Filter vehicles' });
    expect(within(panel).getByLabelText('Max odometer (mi)')).toHaveValue(40000);
  });

  it('filters client-side: case-insensitive contains and max odometer; Clear shows all again', async () => {
    const { user, fetchMock } = renderVehicles();
    await screen.findByRole('article', { name: 'Dacia Logan' });
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    let panel = screen.getByRole('dialog', { name: 'Filter vehicles' });
    await user.type(within(panel).getByLabelText('Fuel type'), 'pEtR');
    await user.click(within(panel).getByRole('button', { name: 'Apply' }));
    expect(cardNames()).toEqual(['Volkswagen Golf', 'Mini Cooper']);

    await user.click(screen.getByRole('button', { name: 'Filter' }));
    panel = screen.getByRole('dialog', { name: 'Filter vehicles' });
    expect(within(panel).getByLabelText('Fuel type')).toHaveValue('pEtR');
    await user.type(within(panel).getByLabelText('Max odometer (km)'), '100000');
    await user.click(within(panel).getByRole('button', { name: 'Apply' }));
    expect(cardNames()).toEqual(['Mini Cooper']);

    await user.click(screen.getByRole('button', { name: 'Filter' }));
    panel = screen.getByRole('dialog', { name: 'Filter vehicles' });
    await user.click(within(panel).getByRole('button', { name: 'Clear' }));
    expect(cardNames()).toEqual(['Dacia Logan', 'Volkswagen Golf', 'Mini Cooper']);

    await user.click(screen.getByRole('button', { name: 'Filter' }));
    panel = screen.getByRole('dialog', { name: 'Filter vehicles' });
    await user.type(within(panel).getByLabelText('Make'), 'DAC');
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(cardNames()).toHaveLength(3);
    // Filtering never asks the server.
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/vehicles'))).toHaveLength(1);
    // Four dialogs' worth of role queries over three full cards: seconds on a shared CI machine.
  }, 20_000);

  it("shows 'Error: {message}' when listing fails and nothing is cached", async () => {
    renderVehicles({ 'GET /api/vehicles': () => jsonResponse({ code: 'INTERNAL', message: 'boom' }, 500) });
    expect(
      await screen.findByText('Error: Something went wrong on the server. Please try again.'),
    ).toBeInTheDocument();
  });

  it('shows the cached vehicles with an offline note when listing fails', async () => {
    vi.mocked(loadVehicles).mockResolvedValue([golf]);
    renderVehicles({
      'GET /api/vehicles': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(await screen.findByRole('article', { name: 'Volkswagen Golf' })).toBeInTheDocument();
    expect(screen.getByText('Showing saved data (offline)')).toBeInTheDocument();
    expect(screen.queryByText(/^Error:/)).not.toBeInTheDocument();
  });

  it('asks with the confirmation modal before deleting', async () => {
    const { user, fetchMock } = renderVehicles({
      'DELETE /api/vehicles/7': () => jsonResponse({ code: 'INTERNAL', message: 'x' }, 500),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Dacia Logan' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete vehicle' });
    expect(within(dialog).getByText(/Are you sure you want to delete Dacia Logan\?/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete Dacia Logan' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect(
      await screen.findByText('Error: Something went wrong on the server. Please try again.'),
    ).toBeInTheDocument();
  });
});
