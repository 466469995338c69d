import type { MonthlyAnalytics } from '@evdra/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import VehicleAnalyticsPage from './VehicleAnalyticsPage';

vi.mock('react-chartjs-2', () => import('../../../test/chartMock'));

const vehicle = {
  id: 7,
  make: 'Dacia',
  model: 'Logan',
  year: 2019,
  fuelType: 'PETROL',
  registrationNumber: 'B-123-ABC',
  engineSize: 1.0,
  odometer: 80000,
  aiEvaluationConsent: false,
  aiScore: null,
  aiScoreReason: null,
  photoUrl: null,
  ownerId: 1,
  ownerUsername: 'alice',
  version: 1,
};

const month = (
  monthDate: string,
  fuel: number,
  expenses = 0,
  insurance = 0,
  revision = 0,
): MonthlyAnalytics => ({
  id: Number(monthDate.slice(0, 7).replace('-', '')),
  monthDate,
  totalFuelLiters: fuel / 1.5,
  totalFuelCost: fuel,
  totalExpensesCost: expenses,
  totalInsuranceCost: insurance,
  totalRevisionCost: revision,
  totalCost: fuel + expenses + insurance + revision,
});

const months = [
  month('2025-02-01', 90, 0, 300),
  month('2025-01-01', 60, 120),
  month('2024-12-01', 45, 0, 0, 200),
];
const totals = {
  totalFuelLiters: 130,
  totalFuelCost: 195,
  totalExpensesCost: 120,
  totalInsuranceCost: 300,
  totalRevisionCost: 200,
  totalCost: 815,
  totalKm: 1500,
  costPerKm: 0.5433,
};
const yearly = {
  '2024': { ...month('2024-12-01', 45, 0, 0, 200) },
  '2025': { ...months[0], totalFuelCost: 150, totalExpensesCost: 120, totalCost: 570 },
};

function renderVehicle(routes: Parameters<typeof mockApi>[0] = {}) {
  storeUser();
  const fetchMock = mockApi({
    'GET /api/vehicles/7': () => jsonResponse(vehicle),
    'GET /api/analytics/vehicle/7/recompute': () => jsonResponse(months),
    'GET /api/analytics/vehicle/7/total': () => jsonResponse(totals),
    'GET /api/analytics/vehicle/7/yearly': () => jsonResponse(yearly),
    ...routes,
  });
  return {
    fetchMock,
    ...renderPage(<VehicleAnalyticsPage />, { path: '/analytics/:vehicleId', route: '/analytics/7' }),
  };
}

describe('VehicleAnalyticsPage', () => {
  it('shows a loading text, then the title, totals, charts and month cards newest first', async () => {
    renderVehicle();
    expect(screen.getByText('Loading analytics…')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Analytics for Dacia Logan' })).toBeInTheDocument();
    const totalsList = screen.getByRole('heading', { name: 'All-time totals' }).parentElement as HTMLElement;
    expect(within(totalsList).getByText('€815.00')).toBeInTheDocument();
    expect(within(totalsList).getByText('1,500 km')).toBeInTheDocument();
    expect(within(totalsList).getByText('€0.54/km')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Total cost per month' })).toHaveTextContent(
      'Total cost: Dec 2024 = 245Total cost: Jan 2025 = 180Total cost: Feb 2025 = 390',
    );
    expect(screen.getByRole('list', { name: 'Yearly costs by category' })).toHaveTextContent(
      'Insurance: 2025 = 300',
    );
    const cards = within(screen.getByRole('list', { name: 'Months' })).getAllByRole('heading', { level: 3 });
    expect(cards.map((h) => h.textContent)).toEqual(['Feb 2025', 'Jan 2025', 'Dec 2024']);
    expect(screen.getByRole('list', { name: 'Cost split of Jan 2025' })).toHaveTextContent(
      'Total cost: Expenses = 120',
    );
    expect(screen.getByRole('list', { name: 'Costs of Feb 2025 by category' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
  });

  it("reads a petrol car's quantities in litres", async () => {
    renderVehicle();
    const totalsList = (await screen.findByRole('heading', { name: 'All-time totals' }))
      .parentElement as HTMLElement;
    expect(within(totalsList).getByText('Fuel (litres)').nextSibling).toHaveTextContent('130.00 L');
  });

  it("reads an electric car's charges in kWh", async () => {
    renderVehicle({ 'GET /api/vehicles/7': () => jsonResponse({ ...vehicle, fuelType: 'ELECTRIC' }) });
    const totalsList = (await screen.findByRole('heading', { name: 'All-time totals' }))
      .parentElement as HTMLElement;
    expect(within(totalsList).getByText('Energy (kWh)').nextSibling).toHaveTextContent('130.00 kWh');
    expect(screen.queryByText(/\d L$/)).not.toBeInTheDocument();
  });

  it("shows '—' as cost per km while the distance is unknown", async () => {
    renderVehicle({
      'GET /api/analytics/vehicle/7/total': () => jsonResponse({ ...totals, totalKm: 0, costPerKm: null }),
    });
    const totalsList = (await screen.findByRole('heading', { name: 'All-time totals' }))
      .parentElement as HTMLElement;
    expect(within(totalsList).getByText('Cost per km').nextSibling).toHaveTextContent('—');
  });

  it('filters the month cards by the typed US-English month, case-insensitively', async () => {
    const { user } = renderVehicle();
    const search = await screen.findByRole('searchbox', { name: 'Search month' });
    await user.type(search, 'jan 2025');
    const cards = within(screen.getByRole('list', { name: 'Months' })).getAllByRole('heading', { level: 3 });
    expect(cards.map((h) => h.textContent)).toEqual(['Jan 2025']);
    await user.clear(search);
    await user.type(search, '2024');
    expect(
      within(screen.getByRole('list', { name: 'Months' }))
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Dec 2024']);
    await user.clear(search);
    await user.type(search, 'Mar 2023');
    expect(screen.queryByRole('list', { name: 'Months' })).not.toBeInTheDocument();
    expect(screen.getByText('No month matches “Mar 2023”.')).toBeInTheDocument();
  });

  it("shows 'Error: {message}' when loading fails", async () => {
    renderVehicle({
      'GET /api/analytics/vehicle/7/recompute': () =>
        jsonResponse({ code: 'BOOM', message: 'Database down' }, 500),
    });
    expect(await screen.findByText('Error: Database down')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'All-time totals' })).not.toBeInTheDocument();
  });

  it("shows 'No analytics data available.' when there is no month", async () => {
    renderVehicle({ 'GET /api/analytics/vehicle/7/recompute': () => jsonResponse([]) });
    expect(await screen.findByText('No analytics data available.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Months' })).not.toBeInTheDocument();
  });

  it('shows the AI summary button only when the vehicle has AI consent', async () => {
    renderVehicle();
    await screen.findByRole('heading', { name: 'Analytics for Dacia Logan' });
    expect(screen.queryByRole('button', { name: 'AI summary' })).not.toBeInTheDocument();
  });

  it('opens the AI summary (loading, then the text), refreshes and hides it', async () => {
    let calls = 0;
    let release: () => void = () => {};
    const { user } = renderVehicle({
      'GET /api/vehicles/7': () => jsonResponse({ ...vehicle, aiEvaluationConsent: true }),
      'GET /ai-feedback/vehicle/7/performance': async () => {
        calls += 1;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return new Response(
          `Answer ${calls}:\n- **Fuel** is the biggest category\n<img src=x onerror=alert(1)>`,
          {
            headers: { 'Content-Type': 'text/plain; charset=utf-8' },
          },
        );
      },
    });
    await user.click(await screen.findByRole('button', { name: 'AI summary' }));
    expect(await screen.findByText('Loading the AI summary…')).toBeInTheDocument();
    release();
    const panel = await screen.findByRole('region', { name: 'AI summary' });
    expect(await within(panel).findByText('Answer 1:')).toBeInTheDocument();
    expect(within(panel).getByText('Fuel').tagName).toBe('STRONG');
    expect(within(panel).getByRole('listitem')).toHaveTextContent('Fuel is the biggest category');
    // Markup in an answer stays text.
    expect(within(panel).getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(panel.querySelector('img')).toBeNull();
    await user.click(within(panel).getByRole('button', { name: 'Refresh' }));
    expect(await within(panel).findByText('Loading the AI summary…')).toBeInTheDocument();
    release();
    expect(await within(panel).findByText('Answer 2:')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Hide' }));
    expect(screen.queryByRole('region', { name: 'AI summary' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'AI summary' })).toBeInTheDocument();
  });

  it("shows 'Unable to load performance insight.' when the summary fails", async () => {
    const { user } = renderVehicle({
      'GET /api/vehicles/7': () => jsonResponse({ ...vehicle, aiEvaluationConsent: true }),
      'GET /ai-feedback/vehicle/7/performance': () => jsonResponse({ code: 'INTERNAL', message: 'x' }, 500),
    });
    await user.click(await screen.findByRole('button', { name: 'AI summary' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to load performance insight.');
  });

  it('shows a not-found state with a link to /vehicles for an unknown vehicle', async () => {
    const notFound = () => jsonResponse({ code: 'NOT_FOUND', message: 'Vehicle not found' }, 404);
    renderVehicle({
      'GET /api/vehicles/7': notFound,
      'GET /api/analytics/vehicle/7/recompute': notFound,
      'GET /api/analytics/vehicle/7/total': notFound,
      'GET /api/analytics/vehicle/7/yearly': notFound,
    });
    expect(await screen.findByRole('heading', { name: 'Vehicle not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to vehicles' })).toHaveAttribute('href', '/vehicles');
    expect(screen.queryByText(/Error:/)).not.toBeInTheDocument();
    expect(screen.queryByTestId('chart')).not.toBeInTheDocument();
  });

  it('goes back to /vehicles', async () => {
    const { user } = renderVehicle();
    await user.click(await screen.findByRole('button', { name: 'Back' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/vehicles');
  });
});

describe('history report panel', () => {
  const link = {
    url: 'http://evdra.test/r/tok1',
    token: 'tok1',
    expiresAt: '2025-03-01T10:00:00.000Z',
    createdAt: '2025-02-15T10:00:00.000Z',
    listingId: null,
  };

  it('lets the owner create a link (copied), see it listed with its expiry, and revoke it', async () => {
    let links: (typeof link)[] = [];
    const { fetchMock, user } = renderVehicle({
      'GET /api/vehicles/7/report-links': () => jsonResponse(links),
      'POST /api/vehicles/7/report-links': () => {
        links = [link];
        return jsonResponse({ url: link.url, token: link.token, expiresAt: link.expiresAt }, 201);
      },
      'DELETE /api/vehicles/7/report-links/tok1': () => {
        links = [];
        return new Response(null, { status: 204 });
      },
    });
    const panel = await screen.findByRole('region', { name: 'History report' });
    expect(within(panel).getByRole('button', { name: 'Download PDF' })).toBeInTheDocument();
    expect(await within(panel).findByText('No open links.')).toBeInTheDocument();

    const days = within(panel).getByLabelText('Valid for (days)');
    await user.clear(days);
    await user.type(days, '91');
    expect(within(panel).getByRole('button', { name: 'Create and copy link' })).toBeDisabled();
    await user.clear(days);
    await user.type(days, '7');
    await user.click(within(panel).getByRole('button', { name: 'Create and copy link' }));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ expiresInDays: 7 });
    expect(await within(panel).findByRole('link', { name: link.url })).toBeInTheDocument();
    // user-event stands in for the clipboard.
    expect(await navigator.clipboard.readText()).toBe(link.url);
    expect(within(panel).getByText('Link copied to the clipboard.')).toBeInTheDocument();
    expect(within(panel).getByText(/valid until Mar 1, 2025/)).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Revoke' }));
    expect(await within(panel).findByText('No open links.')).toBeInTheDocument();
  });

  it("the owner's tick appends the documents' first pages to the downloaded report (issue 52)", async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:report'), revokeObjectURL: vi.fn() });
    const pdf = () =>
      new Response(new Blob(['%PDF-1.4'], { type: 'application/pdf' }), {
        headers: { 'content-disposition': 'attachment; filename="report.pdf"' },
      });
    const { fetchMock, user } = renderVehicle({
      'GET /api/vehicles/7/report-links': () => jsonResponse([]),
      'GET /api/vehicles/7/report.pdf': pdf,
    });
    const panel = await screen.findByRole('region', { name: 'History report' });
    const reportUrls = () =>
      fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.includes('/report.pdf'));
    await user.click(within(panel).getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(reportUrls()).toHaveLength(1));
    expect(reportUrls()[0]).not.toContain('pages=');

    const tick = within(panel).getByLabelText(
      'Append the first page of each document (not the private ones)',
    );
    expect(tick).not.toBeChecked();
    await user.click(tick);
    await user.click(within(panel).getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(reportUrls()).toHaveLength(2));
    expect(reportUrls()[1]).toContain('pages=1');
  });

  it('shows only the download to someone who is not the owner', async () => {
    storeUser({ id: 99 });
    mockApi({
      'GET /api/vehicles/7': () => jsonResponse(vehicle),
      'GET /api/analytics/vehicle/7/recompute': () => jsonResponse(months),
      'GET /api/analytics/vehicle/7/total': () => jsonResponse(totals),
      'GET /api/analytics/vehicle/7/yearly': () => jsonResponse(yearly),
    });
    renderPage(<VehicleAnalyticsPage />, { path: '/analytics/:vehicleId', route: '/analytics/7' });
    const panel = await screen.findByRole('region', { name: 'History report' });
    expect(within(panel).getByRole('button', { name: 'Download PDF' })).toBeInTheDocument();
    expect(within(panel).queryByText('Share report link')).not.toBeInTheDocument();
    expect(within(panel).queryByRole('checkbox')).not.toBeInTheDocument();
  });
});
