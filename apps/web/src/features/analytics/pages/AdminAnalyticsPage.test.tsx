import type { AnalyticsRow } from '@evdra/domain';
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

function renderAdmin(routes: Parameters<typeof mockApi>[0] = {}) {
  storeUser({ role: 'ADMIN', username: 'root' });
  const fetchMock = mockApi({ 'GET /api/analytics/admin/filter': () => jsonResponse(rows), ...routes });
  return {
    fetchMock,
    ...renderPage(<AdminAnalyticsPage />, { path: '/analytics/admin', route: '/analytics/admin' }),
  };
}

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('AdminAnalyticsPage', () => {
  it('sums each vehicle in the table with two decimals and charts owners and vehicles', async () => {
    renderAdmin();
    const first = (await screen.findByRole('cell', { name: 'Dacia Logan' })).closest('tr') as HTMLElement;
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
    await screen.findByRole('cell', { name: 'Dacia Logan' });
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
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('Apply Filters sends start and end to the server', async () => {
    const { user, fetchMock } = renderAdmin();
    await screen.findByRole('cell', { name: 'Dacia Logan' });
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/analytics/admin/filter');
    await user.type(screen.getByLabelText('Start month'), '2025-01');
    await user.type(screen.getByLabelText('End month'), '2025-02');
    await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(
        '/api/analytics/admin/filter?start=2025-01&end=2025-02',
      ),
    );
  });

  it('shows a 400 next to the month inputs', async () => {
    const { user } = renderAdmin({
      'GET /api/analytics/admin/filter': (url) =>
        url.includes('start=')
          ? jsonResponse(
              {
                code: 'VALIDATION_FAILED',
                message: 'Invalid request.',
                details: [{ field: 'start', message: 'Start month must not be after end month.' }],
              },
              400,
            )
          : jsonResponse(rows),
    });
    await screen.findByRole('cell', { name: 'Dacia Logan' });
    await user.type(screen.getByLabelText('Start month'), '2025-03');
    await user.type(screen.getByLabelText('End month'), '2025-01');
    await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Start month must not be after end month.');
    expect(screen.getByLabelText('Start month')).toHaveAccessibleDescription(
      'Start month must not be after end month.',
    );
    expect(screen.queryByText(/^Error:/)).not.toBeInTheDocument();
  });

  it("shows 'Error: {message}' for other failures", async () => {
    renderAdmin({
      'GET /api/analytics/admin/filter': () => jsonResponse({ code: 'X', message: 'Down' }, 500),
    });
    expect(await screen.findByText('Error: Down')).toBeInTheDocument();
  });
});
