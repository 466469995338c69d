import type { AnalyticsRow } from '@evdra/domain';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import UserAnalyticsPage from './UserAnalyticsPage';

vi.mock('react-chartjs-2', () => import('../../../test/chartMock'));

const row = (
  vehicleId: number,
  make: string,
  model: string,
  monthDate: string,
  totalCost: number,
): AnalyticsRow => ({
  vehicleId,
  vehicleMake: make,
  vehicleModel: model,
  ownerUsername: 'alice',
  monthDate,
  totalCost,
  totalFuelCost: totalCost,
  totalExpensesCost: 0,
  totalInsuranceCost: 0,
  totalRevisionCost: 0,
});

const rows = [
  row(1, 'Dacia', 'Logan', '2025-02-01', 100),
  row(2, 'Ford', 'Focus', '2025-02-01', 40),
  row(1, 'Dacia', 'Logan', '2025-01-01', 60),
];

function renderUser(routes: Parameters<typeof mockApi>[0] = {}) {
  storeUser();
  const fetchMock = mockApi({ 'GET /api/analytics/user': () => jsonResponse(rows), ...routes });
  return {
    ...renderPage(<UserAnalyticsPage />, { path: '/analytics/user', route: '/analytics/user' }),
    fetchMock,
  };
}

describe('UserAnalyticsPage', () => {
  it('draws one series per vehicle and filters by vehicle', async () => {
    const { user } = renderUser();
    expect(screen.getByText('Loading analytics…')).toBeInTheDocument();
    const chart = await screen.findByRole('list', { name: 'Monthly cost per vehicle' });
    expect(chart).toHaveTextContent(
      'Dacia Logan: Jan 2025 = 60Dacia Logan: Feb 2025 = 100Ford Focus: Jan 2025 = nullFord Focus: Feb 2025 = 40',
    );
    expect(screen.getByText('Total shown: €200.00')).toBeInTheDocument();

    const select = screen.getByRole('combobox', { name: 'Vehicle' });
    expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'All',
      'Dacia Logan',
      'Ford Focus',
    ]);
    await user.selectOptions(select, 'Ford Focus');
    expect(screen.getByRole('list', { name: 'Monthly cost per vehicle' })).toHaveTextContent(
      /^Ford Focus: Feb 2025 = 40$/,
    );
    expect(screen.getByText('Total shown: €40.00')).toBeInTheDocument();
    await user.selectOptions(select, 'All');
    expect(screen.getByRole('list', { name: 'Monthly cost per vehicle' })).toHaveTextContent('Dacia Logan');
  });

  it("lists a shared car's rows in its owner's currency (no rate known) apart, never added to the total", async () => {
    renderUser({
      'GET /api/analytics/user': () =>
        jsonResponse([
          { ...row(3, 'Skoda', 'Fabia', '2025-02-01', 250), currency: 'RON' },
          ...rows.map((r) => ({ ...r, currency: 'EUR' })),
        ]),
    });
    const chart = await screen.findByRole('list', { name: 'Monthly cost per vehicle' });
    expect(chart).not.toHaveTextContent('250');
    expect(screen.getByText('Total shown: €200.00')).toBeInTheDocument();
    expect(screen.getByText(/^Not converted \(no rate to EUR\):/)).toHaveTextContent(/:\s+lei\s250\.00$/);
  });

  it('reads a fleet a page of car-months at a time, with Load more, and says how far back the total goes', async () => {
    // Two pages: the server's X-Next-Cursor on the first, none on the second.
    const { user, fetchMock } = renderUser({
      'GET /api/analytics/user': (url) => {
        if (url.includes('cursor=')) return jsonResponse(rows.slice(2));
        const first = jsonResponse(rows.slice(0, 2));
        first.headers.set('X-Next-Cursor', '2025-02_2');
        return first;
      },
    });
    expect(await screen.findByText('Total shown: €140.00')).toBeInTheDocument();
    expect(
      screen.getByText('Costs of the months loaded so far, newest first, back to Feb 2025.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Total shown: €200.00')).toBeInTheDocument();
    expect(screen.queryByText(/^Costs of the months loaded so far/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(
      fetchMock.mock.calls.map(([url]) => String(url)).filter((u) => u.includes('/api/analytics/user')),
    ).toEqual(['/api/analytics/user?limit=1000', '/api/analytics/user?limit=1000&cursor=2025-02_2']);
  });

  it("shows 'Error: {message}' and 'No analytics data available.'", async () => {
    renderUser({ 'GET /api/analytics/user': () => jsonResponse({ code: 'X', message: 'Nope' }, 500) });
    expect(await screen.findByText('Error: Nope')).toBeInTheDocument();
  });

  it("shows 'No analytics data available.' without rows", async () => {
    renderUser({ 'GET /api/analytics/user': () => jsonResponse([]) });
    expect(await screen.findByText('No analytics data available.')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Vehicle' })).not.toBeInTheDocument();
  });
});
