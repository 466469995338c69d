import type { AnalyticsRow, GlobalMonth } from '@evdra/domain';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import AdminAnalyticsPage from './AdminAnalyticsPage';

vi.mock('react-chartjs-2', () => import('../../../test/chartMock'));

const row = (
  vehicleId: number,
  make: string,
  model: string,
  owner: string,
  monthDate: string,
  fuel: number,
  insurance = 0,
): AnalyticsRow => ({
  vehicleId,
  vehicleMake: make,
  vehicleModel: model,
  ownerUsername: owner,
  monthDate,
  totalCost: fuel + insurance,
  totalFuelCost: fuel,
  totalExpensesCost: 0,
  totalInsuranceCost: insurance,
  totalRevisionCost: 0,
});

const rows = [
  row(1, 'Dacia', 'Logan', 'alice', '2025-02-01', 100.5, 300),
  row(1, 'Dacia', 'Logan', 'alice', '2025-01-01', 50.25),
  row(2, 'Ford', 'Focus', 'bob', '2025-01-01', 40),
];

/** The rows above added up by month, newest first, as /admin/months answers (in the instance's euros). */
const month = (monthDate: string, fuel: number, insurance = 0): GlobalMonth => ({
  monthDate,
  totalFuelLiters: 0,
  totalFuelCost: fuel,
  totalExpensesCost: 0,
  totalInsuranceCost: insurance,
  totalRevisionCost: 0,
  totalCost: fuel + insurance,
  currency: 'EUR',
});
const months = [month('2025-02-01', 100.5, 300), month('2025-01-01', 90.25)];

function renderAdmin(routes: Parameters<typeof mockApi>[0] = {}) {
  storeUser({ role: 'ADMIN', username: 'root' });
  const fetchMock = mockApi({
    'GET /api/analytics/admin/months': () => jsonResponse(months),
    'GET /api/analytics/admin/filter': () => jsonResponse(rows),
    ...routes,
  });
  return {
    fetchMock,
    ...renderPage(<AdminAnalyticsPage />, { path: '/analytics/admin', route: '/analytics/admin' }),
  };
}

const asked = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.split('?')[0] === path);

/** The per-vehicle rows are read only when asked for (issue 54). */
async function showVehicles(user: ReturnType<typeof renderAdmin>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Show costs per vehicle' }));
  return screen.findByRole('cell', { name: 'Dacia Logan' });
}

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('AdminAnalyticsPage', () => {
  it('opens with every car added up by month, and reads no per-vehicle rows until asked (issue 54)', async () => {
    const { user, fetchMock } = renderAdmin();
    const chart = await screen.findByRole('list', { name: 'Total cost per month' });
    // Oldest first, each category stacked.
    expect(chart).toHaveTextContent('Fuel: Jan 2025 = 90.25Fuel: Feb 2025 = 100.5');
    expect(chart).toHaveTextContent('Insurance: Jan 2025 = 0Insurance: Feb 2025 = 300');
    expect(screen.getByText('All vehicles:').parentElement).toHaveTextContent('All vehicles: €490.75');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Spending per owner' })).not.toBeInTheDocument();
    expect(asked(fetchMock, '/api/analytics/admin/months')).toEqual(['/api/analytics/admin/months']);
    expect(asked(fetchMock, '/api/analytics/admin/filter')).toEqual([]);
    await showVehicles(user);
    expect(asked(fetchMock, '/api/analytics/admin/filter')).toEqual([
      '/api/analytics/admin/filter?limit=1000',
    ]);
    expect(screen.queryByRole('button', { name: 'Show costs per vehicle' })).not.toBeInTheDocument();
    // The month totals stay.
    expect(screen.getByRole('list', { name: 'Total cost per month' })).toBeInTheDocument();
  });

  it('lists a month in a currency without a rate apart, neither charted nor added to the total', async () => {
    renderAdmin({
      'GET /api/analytics/admin/months': () =>
        jsonResponse([...months, { ...month('2025-01-01', 500), currency: 'RON' }]),
    });
    const chart = await screen.findByRole('list', { name: 'Total cost per month' });
    expect(chart).not.toHaveTextContent('500');
    expect(screen.getByText('All vehicles:').parentElement).toHaveTextContent('All vehicles: €490.75');
    expect(screen.getByText(/^Not converted \(no rate to EUR\):/)).toHaveTextContent(
      /Jan 2025 lei\s500\.00$/,
    );
  });

  it("lists a car's rows in a currency without a rate apart, neither in the table nor added to the total", async () => {
    const { user } = renderAdmin({
      'GET /api/analytics/admin/filter': () =>
        jsonResponse([
          ...rows,
          { ...row(3, 'Skoda', 'Fabia', 'ion', '2025-01-01', 500), currency: 'RON' },
          { ...row(2, 'Ford', 'Focus', 'bob', '2025-02-01', 7), currency: 'RON' },
        ]),
    });
    await showVehicles(user);
    expect(screen.queryByRole('cell', { name: 'Skoda Fabia' })).not.toBeInTheDocument();
    expect(bodyRows()).toHaveLength(2);
    expect(screen.getByText('All shown vehicles:').parentElement).toHaveTextContent(
      'All shown vehicles: €490.75',
    );
    expect(screen.getByRole('list', { name: 'Spending per owner' })).not.toHaveTextContent('ion');
    expect(screen.getAllByText(/^Not converted \(no rate to EUR\):/).at(-1)).toHaveTextContent(
      /:\s+lei\s507\.00$/,
    );
  });

  it('typing in the search box reads the per-vehicle rows too', async () => {
    const { user, fetchMock } = renderAdmin();
    await screen.findByRole('list', { name: 'Total cost per month' });
    await user.type(screen.getByRole('searchbox', { name: 'Search vehicle or owner' }), 'ford');
    expect(await screen.findByRole('cell', { name: 'Ford Focus' })).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(1);
    expect(asked(fetchMock, '/api/analytics/admin/filter')).toHaveLength(1);
  });

  it('sums each vehicle in the table with two decimals and charts owners and vehicles', async () => {
    const { user } = renderAdmin();
    const first = (await showVehicles(user)).closest('tr') as HTMLElement;
    expect(within(first).getByRole('cell', { name: 'alice' })).toBeInTheDocument();
    expect(within(first).getByRole('cell', { name: '€150.75' })).toBeInTheDocument();
    expect(within(first).getByRole('cell', { name: '€300.00' })).toBeInTheDocument();
    expect(within(first).getByRole('cell', { name: '€450.75' })).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(2);
    expect(screen.getByRole('list', { name: 'Spending per owner' })).toHaveTextContent(
      'Total cost: alice = 450.75Total cost: bob = 40',
    );
    expect(screen.getByRole('list', { name: 'Cost per vehicle' })).toHaveTextContent(
      'Dacia Logan · alice = 450.75',
    );
  });

  it('filters by owner and by the search box in the browser', async () => {
    const { user, fetchMock } = renderAdmin();
    await showVehicles(user);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Owner' }), 'bob');
    expect(bodyRows()).toHaveLength(1);
    expect(screen.getByRole('cell', { name: 'Ford Focus' })).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Owner' }), 'All');
    await user.type(screen.getByRole('searchbox', { name: 'Search vehicle or owner' }), 'dacia');
    expect(bodyRows()).toHaveLength(1);
    expect(screen.getByRole('cell', { name: 'Dacia Logan' })).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Search vehicle or owner' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search vehicle or owner' }), 'BOB');
    expect(screen.getByRole('cell', { name: 'Ford Focus' })).toBeInTheDocument();
    expect(asked(fetchMock, '/api/analytics/admin/filter')).toHaveLength(1);
    expect(asked(fetchMock, '/api/analytics/admin/months')).toHaveLength(1);
  });

  it('Apply Filters sends start and end to the server', async () => {
    const { user, fetchMock } = renderAdmin();
    await screen.findByRole('list', { name: 'Total cost per month' });
    await user.type(screen.getByLabelText('Start month'), '2025-01');
    await user.type(screen.getByLabelText('End month'), '2025-02');
    await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
    await vi.waitFor(() =>
      expect(asked(fetchMock, '/api/analytics/admin/months')).toContain(
        '/api/analytics/admin/months?start=2025-01&end=2025-02',
      ),
    );
    // Still no per-vehicle read; asked for, it has the same range.
    expect(asked(fetchMock, '/api/analytics/admin/filter')).toEqual([]);
    await showVehicles(user);
    expect(asked(fetchMock, '/api/analytics/admin/filter')).toEqual([
      '/api/analytics/admin/filter?start=2025-01&end=2025-02&limit=1000',
    ]);
  });

  it('reads more car-months with Load more, and says the totals go back only as far as those loaded', async () => {
    // Two pages: the server's X-Next-Cursor on the first, none on the second.
    const { user, fetchMock } = renderAdmin({
      'GET /api/analytics/admin/filter': (url) => {
        if (url.includes('cursor=')) return jsonResponse(rows.slice(1));
        const first = jsonResponse(rows.slice(0, 1));
        first.headers.set('X-Next-Cursor', '2025-02_1');
        return first;
      },
    });
    await showVehicles(user);
    expect(
      screen.getByText('Costs of the months loaded so far, newest first, back to Feb 2025.'),
    ).toBeInTheDocument();
    expect(within(bodyRows()[0] as HTMLElement).getByRole('cell', { name: '€400.50' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('cell', { name: 'Ford Focus' })).toBeInTheDocument();
    // The whole of both cars now: Dacia's two months added up, and nothing left to load.
    expect(within(bodyRows()[0] as HTMLElement).getByRole('cell', { name: '€450.75' })).toBeInTheDocument();
    expect(screen.queryByText(/^Costs of the months loaded so far/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(asked(fetchMock, '/api/analytics/admin/filter')).toEqual([
      '/api/analytics/admin/filter?limit=1000',
      '/api/analytics/admin/filter?limit=1000&cursor=2025-02_1',
    ]);
  });

  it('shows a 400 next to the month inputs', async () => {
    const rejecting =
      <T,>(answer: T) =>
      (url: string) =>
        url.includes('start=')
          ? jsonResponse(
              {
                code: 'VALIDATION_FAILED',
                message: 'Invalid request.',
                details: [{ field: 'start', message: 'Start month must not be after end month.' }],
              },
              400,
            )
          : jsonResponse(answer);
    const { user } = renderAdmin({
      'GET /api/analytics/admin/months': rejecting(months),
      'GET /api/analytics/admin/filter': rejecting(rows),
    });
    await showVehicles(user);
    await user.type(screen.getByLabelText('Start month'), '2025-03');
    await user.type(screen.getByLabelText('End month'), '2025-01');
    await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Start month must not be after end month.');
    expect(screen.getByLabelText('Start month')).toHaveAccessibleDescription(
      'Start month must not be after end month.',
    );
    expect(screen.queryByText(/^Error:/)).not.toBeInTheDocument();
    // The last answers stay on screen.
    expect(screen.getByRole('list', { name: 'Total cost per month' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Dacia Logan' })).toBeInTheDocument();
  });

  it("shows 'Error: {message}' for other failures", async () => {
    renderAdmin({
      'GET /api/analytics/admin/months': () => jsonResponse({ code: 'X', message: 'Down' }, 500),
    });
    expect(await screen.findByText('Error: Down')).toBeInTheDocument();
  });

  it("shows 'Error: {message}' when the per-vehicle rows fail", async () => {
    const { user } = renderAdmin({
      'GET /api/analytics/admin/filter': () => jsonResponse({ code: 'X', message: 'Gone' }, 500),
    });
    await user.click(await screen.findByRole('button', { name: 'Show costs per vehicle' }));
    expect(await screen.findByText('Error: Gone')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Total cost per month' })).toBeInTheDocument();
  });
});
