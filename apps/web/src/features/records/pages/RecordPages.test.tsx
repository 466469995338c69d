import type { FuelEntry, Insurance, Revision } from '@evdra/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeInsurance, makeVehicle } from '../../../test/fixtures';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import ExpensesPage from './ExpensesPage';
import FuelPage from './FuelPage';
import InsurancePage from './InsurancePage';
import RevisionPage from './RevisionPage';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));

const logan = makeVehicle({ id: 7, ownerId: 1 });
const golf = makeVehicle({ id: 8, make: 'Volkswagen', model: 'Golf', ownerId: 1 });

const policy: Insurance = makeInsurance();

const fill = (o: Partial<FuelEntry> = {}): FuelEntry => ({
  id: 1,
  vehicleId: 7,
  fuelType: 'DIESEL',
  liters: 40,
  fuelPrice: 280.5,
  pricePerLiter: 7.0125,
  odometer: 120500,
  date: '2025-03-02',
  fullTank: true,
  missedPrevious: false,
  consumptionPer100km: 6.456,
  ...o,
});

const revision: Revision = {
  id: 5,
  vehicleId: 7,
  date: '2025-02-10',
  km: 118000,
  price: 420,
  description: 'Oil and filters',
  reminderEnabled: true,
  manualReminderDate: '2026-02-10',
};

function render(ui: React.ReactElement, path: string, route: string, routes: Parameters<typeof mockApi>[0]) {
  const fetchMock = mockApi(routes);
  return { fetchMock, ...renderPage(ui, { path, route }) };
}

describe('record pages', () => {
  it('insurance: header, every field in €, and owner actions for the owner', async () => {
    storeUser({ id: 1 });
    render(<InsurancePage />, '/insurance/:vehicleId', '/insurance/7', {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/insurance/vehicle/7': () => jsonResponse([policy]),
    });
    expect(await screen.findByRole('heading', { name: 'Insurance for Dacia Logan' })).toBeInTheDocument();
    const item = (await screen.findByRole('heading', { name: 'Allianz' })).closest('li') as HTMLElement;
    expect(within(item).getByText('RCA-1')).toBeInTheDocument();
    expect(within(item).getByText('Valid from Jan 1, 2025 until Dec 31, 2025')).toBeInTheDocument();
    expect(within(item).getByText('€350.00')).toBeInTheDocument();
    expect(within(item).getByRole('img', { name: 'Reminder on' })).toBeInTheDocument();
    expect(within(item).getByRole('button', { name: 'Stop Reminder: Allianz' })).toBeInTheDocument();
    expect(within(item).getByRole('button', { name: 'Edit insurance Allianz' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Insurance' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload Receipt' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/vehicles');
  });

  it.each([
    [
      'insurance',
      <InsurancePage key="i" />,
      '/api/insurance/vehicle/7',
      [policy],
      'Add Insurance',
      'Edit insurance Allianz',
    ],
    [
      'fuel',
      <FuelPage key="f" />,
      '/api/fuel-consumptions/vehicle/7',
      [fill()],
      'Add Manually',
      'Edit fuel entry Mar 2, 2025',
    ],
    [
      'revision',
      <RevisionPage key="r" />,
      '/api/revision/vehicle/7',
      [revision],
      'Add Revision',
      'Edit revision Feb 10, 2025',
    ],
  ])(
    '%s: hides Add, Upload Receipt, Edit, Delete and toggles from a non-owner',
    async (kind, ui, listPath, rows, add, edit) => {
      storeUser({ id: 2, role: 'ADMIN', username: 'root' });
      render(ui, `/${kind}/:vehicleId`, `/${kind}/7`, {
        'GET /api/vehicles/7': () => jsonResponse(logan),
        [`GET ${listPath}`]: () => jsonResponse(rows),
      });
      await screen.findByRole('list');
      expect(screen.queryByRole('button', { name: add })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Upload Receipt' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: edit })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Reminder/i })).not.toBeInTheDocument();
      expect(screen.queryByRole('switch')).not.toBeInTheDocument();
      expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    },
  );

  it("fuel: the AI summary only with consent, and 'Unable to load AI feedback.' when it fails", async () => {
    storeUser({ id: 1 });
    const noConsent = render(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', {
      'GET /api/vehicles/7': () => jsonResponse({ ...logan, aiEvaluationConsent: false }),
      'GET /api/fuel-consumptions/vehicle/7': () => jsonResponse([fill()]),
    });
    await screen.findByText('6.5 L/100 km');
    expect(screen.queryByRole('button', { name: 'AI summary' })).not.toBeInTheDocument();
    noConsent.unmount();
    let fail = false;
    const { user } = render(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/fuel-consumptions/vehicle/7': () => jsonResponse([fill()]),
      'GET /ai-feedback/vehicle/7/fuel': () =>
        fail
          ? jsonResponse({ code: 'INTERNAL', message: 'x' }, 500)
          : new Response('Average consumption from full tank to full tank: 6.46 L/100 km.', {
              headers: { 'Content-Type': 'text/plain; charset=utf-8' },
            }),
    });
    await user.click(await screen.findByRole('button', { name: 'AI summary' }));
    const panel = await screen.findByRole('region', { name: 'AI summary' });
    expect(
      await within(panel).findByText(/Average consumption from full tank to full tank/),
    ).toBeInTheDocument();
    fail = true;
    await user.click(within(panel).getByRole('button', { name: 'Refresh' }));
    expect(await within(panel).findByText('Unable to load AI feedback.')).toBeInTheDocument();
  });

  it("shows 'Vehicle not found' and no records when the vehicle answers 404", async () => {
    storeUser({ id: 2 });
    render(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', {
      'GET /api/fuel-consumptions/vehicle/7': () => jsonResponse([fill()]),
    });
    expect(await screen.findByRole('heading', { name: 'Vehicle not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to vehicles' })).toHaveAttribute('href', '/vehicles');
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
    expect(screen.queryByText('€280.50')).not.toBeInTheDocument();
  });

  it('fuel: shows L/100 km with 1 decimal (— when null) and amounts in €; the date filter asks the server', async () => {
    storeUser({ id: 1 });
    const { user, fetchMock } = render(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/fuel-consumptions/vehicle/7': () =>
        jsonResponse([
          fill(),
          fill({ id: 2, date: '2025-02-01', fullTank: false, consumptionPer100km: null }),
        ]),
    });
    expect(await screen.findByRole('heading', { name: 'Fuel records for Dacia Logan' })).toBeInTheDocument();
    const first = (await screen.findByRole('heading', { name: 'Mar 2, 2025' })).closest('li') as HTMLElement;
    expect(within(first).getByText('6.5 L/100 km')).toBeInTheDocument();
    expect(within(first).getAllByText('€280.50')).toHaveLength(2);
    expect(within(first).getByText('€7.013/L')).toBeInTheDocument();
    expect(within(first).getByText('40.00 L')).toBeInTheDocument();
    expect(within(first).getByText('120,500 km')).toBeInTheDocument();
    expect(within(first).getByText('Full tank')).toBeInTheDocument();
    const second = screen.getByRole('heading', { name: 'Feb 1, 2025' }).closest('li') as HTMLElement;
    expect(within(second).getByText('Partial')).toBeInTheDocument();
    expect(within(second).getByText('—')).toBeInTheDocument();
    expect(screen.queryByText(/\$/)).not.toBeInTheDocument();

    const filter = screen.getByRole('form', { name: 'Filter by date' });
    await user.type(within(filter).getByLabelText('From'), '2025-03-01');
    await user.click(within(filter).getByRole('button', { name: 'Filter' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain(
        '/api/fuel-consumptions/vehicle/7?from=2025-03-01&limit=100',
      ),
    );
  });

  it('fuel: a long history shows every fill-up, newest first (the first dozen at once, the rest right after)', async () => {
    storeUser({ id: 1 });
    const day = (i: number) => new Date(Date.UTC(2025, 0, 60 - i)).toISOString().slice(0, 10);
    render(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/fuel-consumptions/vehicle/7': () =>
        jsonResponse(
          Array.from({ length: 45 }, (_, i) => fill({ id: i + 1, date: day(i), fuelPrice: 50 + i })),
        ),
    });
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(45));
    const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(titles[0]).toBe('Mar 1, 2025');
    expect(titles[44]).toBe('Jan 16, 2025');
    expect(screen.getByText('€94.00', { selector: '.amount--big' })).toBeInTheDocument();
  });

  it('fuel: an electric car charges read in kWh, kWh/100km and €/kWh, and the form asks for kWh', async () => {
    storeUser({ id: 1 });
    const spring = { ...logan, id: 9, model: 'Spring', fuelType: 'ELECTRIC' as const };
    const { user } = render(<FuelPage />, '/fuel/:vehicleId', '/fuel/9', {
      'GET /api/vehicles/9': () => jsonResponse(spring),
      'GET /api/fuel-consumptions/vehicle/9': () =>
        jsonResponse([
          fill({
            vehicleId: 9,
            fuelType: 'ELECTRIC',
            liters: 30,
            fuelPrice: 13.5,
            pricePerLiter: 0.45,
            consumptionPer100km: 15.2,
          }),
        ]),
    });
    const card = (await screen.findByRole('heading', { name: 'Mar 2, 2025' })).closest('li') as HTMLElement;
    expect(within(card).getByText('30.00 kWh')).toBeInTheDocument();
    expect(within(card).getByText('15.2 kWh/100 km')).toBeInTheDocument();
    expect(within(card).getByText('€0.450/kWh')).toBeInTheDocument();
    expect(within(card).getByText('Price per kWh')).toBeInTheDocument();
    expect(within(card).queryByText(/L\/100km|\d L$/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Manually' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Fuel Entry' });
    expect(within(dialog).getByLabelText('Energy (kWh)')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Price per kWh (€)')).toBeInTheDocument();
    // One fuel, no picker (issue 51): a charge of an electric car is a charge.
    expect(within(dialog).queryByLabelText('Fuel type')).not.toBeInTheDocument();
  });

  it('fuel: the odometer-order message shows next to the odometer field and the form keeps its values', async () => {
    storeUser({ id: 1 });
    const { user } = render(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/fuel-consumptions/vehicle/7': () => jsonResponse([]),
      'POST /api/fuel-consumptions': () =>
        jsonResponse(
          {
            code: 'VALIDATION_FAILED',
            message: 'Invalid',
            details: [
              { field: 'odometer', message: 'Odometer 9,000 km is lower than 120,500 km on Mar 2, 2025.' },
            ],
          },
          400,
        ),
    });
    await user.click(await screen.findByRole('button', { name: 'Add Manually' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Fuel Entry' });
    expect(within(dialog).getByLabelText('Full tank')).toBeChecked();
    await user.type(within(dialog).getByLabelText('Litres'), '40');
    await user.type(within(dialog).getByLabelText('Total paid (€)'), '280');
    await user.type(within(dialog).getByLabelText('Odometer (km)'), '9000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/Odometer 9,000 km is lower than/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Odometer (km)')).toHaveAccessibleDescription(/lower than/);
    expect(within(dialog).getByLabelText('Litres')).toHaveValue(40);
  });

  it("fuel: a failed load or delete reads 'Error Please try again: …'", async () => {
    storeUser({ id: 1 });
    const failing = render(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/fuel-consumptions/vehicle/7': () => jsonResponse({ code: 'INTERNAL', message: 'x' }, 500),
    });
    expect(await screen.findByText(/^Error Please try again: /)).toBeInTheDocument();
    failing.unmount();

    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = render(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/fuel-consumptions/vehicle/7': () => jsonResponse([fill()]),
      'DELETE /api/fuel-consumptions/1': () => jsonResponse({ code: 'INTERNAL', message: 'x' }, 500),
    });
    await user.click(await screen.findByRole('button', { name: /^Delete/ }));
    expect(await screen.findByText(/^Error Please try again: /)).toBeInTheDocument();
    // The entry is still listed: nothing was deleted.
    expect(screen.getByRole('button', { name: /^Delete/ })).toBeInTheDocument();
  });

  it('revision: the next-revision date is saved on blur or Enter only when changed and not empty', async () => {
    storeUser({ id: 1 });
    const { user, fetchMock } = render(<RevisionPage />, '/revision/:vehicleId', '/revision/7', {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/revision/vehicle/7': () => jsonResponse([revision]),
      'PUT /api/revision/5/manual-reminder': () =>
        jsonResponse({ ...revision, manualReminderDate: '2026-03-01' }),
    });
    const input = await screen.findByLabelText('Next revision date for revision Feb 10, 2025');
    expect(input).toHaveValue('2026-02-10');
    const puts = () =>
      fetchMock.mock.calls.filter(([u, i]) => i?.method === 'PUT' && String(u).includes('manual'));

    await user.click(input);
    await user.tab(); // blur without a change
    expect(puts()).toHaveLength(0);

    await user.clear(input);
    await user.tab(); // blur while empty
    expect(puts()).toHaveLength(0);

    await user.type(input, '2026-03-01');
    await user.tab();
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(JSON.parse(String(puts()[0]?.[1]?.body))).toEqual({ reminderDate: '2026-03-01' });

    // Enter saves too, but not again for the same value.
    await user.click(input);
    await user.keyboard('{Enter}');
    await user.tab();
    expect(puts()).toHaveLength(1);
  });

  it('revision: a failed reminder date alerts the spec text', async () => {
    storeUser({ id: 1 });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user } = render(<RevisionPage />, '/revision/:vehicleId', '/revision/7', {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/revision/vehicle/7': () => jsonResponse([{ ...revision, reminderEnabled: false }]),
      'PUT /api/revision/5/manual-reminder': () =>
        jsonResponse({ code: 'REMINDER_DISABLED', message: 'off' }, 409),
    });
    const input = await screen.findByLabelText('Next revision date for revision Feb 10, 2025');
    await user.clear(input);
    await user.type(input, '2026-05-05{Enter}');
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith('Failed to set next revision reminder. Is the reminder enabled?'),
    );
  });

  it('all vehicles: lists the records of every vehicle with its name, newest first', async () => {
    storeUser({ id: 1 });
    render(<ExpensesPage />, '/expenses', '/expenses', {
      'GET /api/vehicles': () => jsonResponse([golf, logan]),
      // One paged request for all vehicles, newest first.
      'GET /api/expenses': () =>
        jsonResponse({
          items: [
            {
              id: 2,
              vehicleId: 8,
              date: '2025-04-01',
              expenseType: 'Tyres',
              amount: 600.5,
              description: 'Winter',
            },
            { id: 1, vehicleId: 7, date: '2025-01-05', expenseType: 'Parking', amount: 3, description: '' },
          ],
          nextCursor: null,
        }),
    });
    expect(await screen.findByRole('heading', { name: 'Expenses for all vehicles' })).toBeInTheDocument();
    await screen.findByText('€600.50');
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => within(li).getByRole('heading').textContent)).toEqual(['Tyres', 'Parking']);
    expect(within(items[0] as HTMLElement).getByText('Volkswagen Golf')).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).getByText('Dacia Logan')).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).getByText('€3.00')).toBeInTheDocument();
  });

  it('all vehicles: loads the next page with its cursor, and says nothing more follows on the last', async () => {
    storeUser({ id: 1 });
    const parking = (id: number, date: string) => ({
      id,
      vehicleId: 7,
      date,
      expenseType: 'Parking',
      amount: id,
      description: '',
    });
    const { user, fetchMock } = render(<ExpensesPage />, '/expenses', '/expenses', {
      'GET /api/vehicles': () => jsonResponse([golf, logan]),
      'GET /api/expenses': (url) =>
        url.includes('cursor=2025-02-01_2')
          ? jsonResponse({ items: [parking(1, '2025-01-01')], nextCursor: null })
          : jsonResponse({
              items: [parking(3, '2025-03-01'), parking(2, '2025-02-01')],
              nextCursor: '2025-02-01_2',
            }),
    });
    await screen.findByText('€3.00');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('€1.00')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    const urls = fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/expenses'));
    expect(urls).toEqual(['/api/expenses?limit=30', '/api/expenses?limit=30&cursor=2025-02-01_2']);
  });

  it("one vehicle: a long list comes a page at a time, and 'Load more' follows the next cursor", async () => {
    storeUser({ id: 1 });
    const day = (i: number) => new Date(Date.UTC(2025, 0, 60 - i)).toISOString().slice(0, 10);
    const fills = Array.from({ length: 8 }, (_, i) => fill({ id: 8 - i, date: day(i), fuelPrice: 1000 + i }));
    // The server picks the page (here 5 records, as one that had 5 left under its cap would).
    const { user, fetchMock } = render(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/fuel-consumptions/vehicle/7': (url) => {
        const after = new URL(url, 'http://x').searchParams.get('cursor');
        const start = after ? fills.findIndex((f) => `${f.date}_${f.id}` === after) + 1 : 0;
        const page = fills.slice(start, start + 5);
        const last = page.at(-1) as FuelEntry;
        const more = start + 5 < fills.length;
        return new Response(JSON.stringify(page), {
          headers: {
            'Content-Type': 'application/json',
            ...(more ? { 'X-Next-Cursor': `${last.date}_${last.id}` } : {}),
          },
        });
      },
    });
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(5));
    expect(screen.queryByText('€1,007.00')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(8));
    expect(screen.getAllByText('€1,007.00').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    const cursor = `${fills[4]?.date}_${fills[4]?.id}`;
    const urls = fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.includes('/vehicle/7'));
    expect(urls).toEqual([
      '/api/fuel-consumptions/vehicle/7?limit=100',
      `/api/fuel-consumptions/vehicle/7?limit=100&cursor=${cursor}`,
    ]);
  });

  it('from 1024 px the fuel list is a table: a column per figure, the date naming each row', async () => {
    storeUser({ id: 1 });
    // jsdom has no layout: answer the page's (min-width: 1024px) query as a desktop would.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(min-width: 1024px)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    try {
      render(<FuelPage />, '/fuel', '/fuel', {
        'GET /api/vehicles': () => jsonResponse([golf, logan]),
        'GET /api/fuel-consumptions': () =>
          jsonResponse({
            items: [fill(), fill({ id: 2, vehicleId: 8, date: '2025-02-01', fullTank: false })],
            nextCursor: null,
          }),
      });
      const table = await screen.findByRole('table', { name: 'Fuel records for all vehicles' });
      expect(screen.queryByRole('listitem')).not.toBeInTheDocument();
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((th) => th.textContent),
      ).toEqual([
        'Date',
        'Vehicle',
        'Fuel type',
        'Quantity',
        'Total paid',
        'Price per unit',
        'Odometer (km)',
        'Consumption',
        'Actions',
      ]);
      const row = within(table).getByRole('row', { name: /Mar 2, 2025/ });
      expect(within(row).getByRole('rowheader')).toHaveTextContent('Mar 2, 2025');
      for (const text of [
        'Dacia Logan',
        'Diesel',
        '40.00 L',
        '€280.50',
        '€7.013/L',
        '120,500',
        '6.5 L/100 km',
      ])
        expect(within(row).getByText(text)).toBeInTheDocument();
      expect(within(row).getByRole('button', { name: 'Edit fuel entry Mar 2, 2025' })).toBeInTheDocument();
      // Only a partial fill is marked.
      expect(within(row).queryByText('Partial')).not.toBeInTheDocument();
      const partial = within(table).getByRole('row', { name: /Feb 1, 2025/ });
      expect(within(partial).getByText('Partial')).toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('insurance: delete asks "Delete this insurance?" first', async () => {
    storeUser({ id: 1 });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user, fetchMock } = render(<InsurancePage />, '/insurance/:vehicleId', '/insurance/7', {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/insurance/vehicle/7': () => jsonResponse([policy]),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete insurance Allianz' }));
    expect(confirm).toHaveBeenCalledWith('Delete this insurance?');
    expect(fetchMock.mock.calls.some(([, i]) => i?.method === 'DELETE')).toBe(false);
  });
});

// Issue 22: a car shared with the user. An editor writes its records, a viewer only reads; each
// record says who wrote it.
describe('record pages of a shared car', () => {
  const shared = (access: 'EDITOR' | 'VIEWER') =>
    makeVehicle({ id: 7, ownerId: 1, ownerUsername: 'alice', access });
  const byAlice = { ...fill(), createdBy: 'alice' };

  it.each([
    ['EDITOR', true],
    ['VIEWER', false],
  ] as const)(
    'fuel as %s: Add and Edit only for an editor, and "by alice" on her fill-up',
    async (access, writes) => {
      storeUser({ id: 2, username: 'bob' });
      render(<FuelPage />, '/fuel/:vehicleId', '/fuel/7', {
        'GET /api/vehicles/7': () => jsonResponse(shared(access)),
        'GET /api/fuel-consumptions/vehicle/7': () => jsonResponse([byAlice]),
      });
      expect((await screen.findAllByText('by alice')).length).toBeGreaterThan(0);
      const add = screen.queryByRole('button', { name: 'Add Manually' });
      const edit = screen.queryAllByRole('button', { name: /^Edit fuel entry/ });
      if (writes) {
        expect(add).toBeInTheDocument();
        expect(edit.length).toBeGreaterThan(0);
      } else {
        expect(add).not.toBeInTheDocument();
        expect(edit).toHaveLength(0);
        expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
      }
    },
  );
});
