import type { FuelEntry } from '@evdra/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import FuelPage from './FuelPage';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));

const truck = makeVehicle({ id: 7, make: 'Ford', model: 'F-150', ownerId: 1 });

const fill = (o: Partial<FuelEntry> = {}): FuelEntry => ({
  id: 1,
  vehicleId: 7,
  fuelType: 'PETROL',
  liters: 37.85,
  fuelPrice: 52.48,
  pricePerLiter: 1.3865,
  odometer: 160934,
  date: '2025-03-02',
  fullTank: true,
  missedPrevious: false,
  consumptionPer100km: 8.4,
  currency: 'USD',
  ...o,
});

const usReader = () =>
  storeUser({ id: 1, currency: 'USD', distanceUnit: 'mi', volumeUnit: 'USGAL', consumptionUnit: 'MPG_US' });

const open = (ui: React.ReactElement, routes: Parameters<typeof mockApi>[0]) => {
  const fetchMock = mockApi(routes);
  return { fetchMock, ...renderPage(ui, { path: '/fuel/:vehicleId', route: '/fuel/7' }) };
};

const posted = (fetchMock: ReturnType<typeof mockApi>) => {
  const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST' || init?.method === 'PUT');
  return JSON.parse(String(call?.[1]?.body)) as Record<string, unknown>;
};

describe("money and measures in the reader's units", () => {
  it('a US reader reads dollars, gallons, miles and mpg; a fill-up paid in lei keeps lei', async () => {
    usReader();
    open(<FuelPage />, {
      'GET /api/vehicles/7': () => jsonResponse(truck),
      'GET /api/fuel-consumptions/vehicle/7': () =>
        jsonResponse([
          fill(),
          fill({ id: 2, date: '2025-02-01', currency: 'RON', fuelPrice: 250, consumptionPer100km: null }),
        ]),
    });
    const first = (await screen.findByRole('heading', { name: 'Mar 2, 2025' })).closest('li') as HTMLElement;
    expect(within(first).getAllByText('$52.48')).toHaveLength(2);
    expect(within(first).getByText('10.00 gal')).toBeInTheDocument();
    expect(within(first).getByText('100,000 mi')).toBeInTheDocument();
    // 8.4 L/100 km is 28.0 US mpg.
    expect(within(first).getByText('28.0 mpg')).toBeInTheDocument();
    expect(within(first).getByText('$5.248/gal')).toBeInTheDocument();
    expect(within(first).getByText('Price per US gallon')).toBeInTheDocument();
    expect(within(first).queryByText(/€|km|L\/100/)).toBeNull();

    const second = screen.getByRole('heading', { name: 'Feb 1, 2025' }).closest('li') as HTMLElement;
    expect(within(second).getAllByText('lei 250.00')).toHaveLength(2);
  });

  it('a fill-up typed in gallons and miles is stored metric and reads back as typed', async () => {
    usReader();
    let saved: FuelEntry[] = [];
    const { user, fetchMock } = open(<FuelPage />, {
      'GET /api/vehicles/7': () => jsonResponse(truck),
      'GET /api/fuel-consumptions/vehicle/7': () => jsonResponse(saved),
      'POST /api/fuel-consumptions': (_url, init) => {
        const body = JSON.parse(String(init?.body)) as FuelEntry;
        // The server keeps price per litre to 3 decimals today (numeric(10,3)); here it keeps what came.
        saved = [fill({ ...body, id: 9, consumptionPer100km: null })];
        return jsonResponse(saved[0], 201);
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add Manually' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Fuel Entry' });
    await user.type(within(dialog).getByLabelText('US gallons'), '10.57');
    await user.type(within(dialog).getByLabelText('Total paid ($)'), '36.99');
    await user.type(within(dialog).getByLabelText('Price per US gallon ($)'), '3.499');
    await user.type(within(dialog).getByLabelText('Odometer (mi)'), '87412');
    // The reader's own currency: no rate to ask for.
    expect(within(dialog).getByLabelText('Currency')).toHaveValue('USD');
    expect(within(dialog).queryByLabelText('Exchange rate')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const body = posted(fetchMock);
    expect(body).toMatchObject({
      liters: 40.01, // 10.57 US gal
      fuelPrice: 36.99,
      pricePerLiter: 0.9243, // $3.499 a gallon
      odometer: 140676, // 87,412 mi = 140,676.3 km
      currency: 'USD',
    });
    expect(body).not.toHaveProperty('exchangeRate');

    // The saved fill-up (dated today) reads back in miles and gallons.
    const card = (await screen.findByText('87,412 mi')).closest('li') as HTMLElement;
    expect(within(card).getByText('10.57 gal')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: /^Edit/ }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Fuel Entry' });
    expect(within(edit).getByLabelText('US gallons')).toHaveValue(10.57);
    expect(within(edit).getByLabelText('Odometer (mi)')).toHaveValue(87412);
    expect(within(edit).getByLabelText('Price per US gallon ($)')).toHaveValue(3.499);
    // Typing a dozen fields is slow on a loaded machine.
  }, 20_000);

  it('another currency asks for its rate: proposed from the reference rates, else typed and remembered', async () => {
    usReader();
    localStorage.removeItem('evdra:lastRate:HUF:USD');
    const { user, fetchMock } = open(<FuelPage />, {
      'GET /api/vehicles/7': () => jsonResponse(truck),
      'GET /api/fuel-consumptions/vehicle/7': () => jsonResponse([]),
      'GET /api/fx/rate': (url) =>
        url.includes('from=EUR')
          ? jsonResponse({
              from: 'EUR',
              to: 'USD',
              rate: 1.0832,
              date: '2025-03-03',
              source: 'ECB',
              carried: false,
            })
          : jsonResponse({ code: 'NOT_FOUND', message: 'No rate' }, 404),
      'POST /api/fuel-consumptions': () =>
        jsonResponse(
          {
            code: 'VALIDATION_FAILED',
            message: 'Invalid',
            details: [{ field: 'odometer', message: 'Odometer 100 km is lower than 120,500 km.' }],
          },
          400,
        ),
    });
    await user.click(await screen.findByRole('button', { name: 'Add Manually' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Fuel Entry' });
    await user.type(within(dialog).getByLabelText('US gallons'), '10');
    await user.type(within(dialog).getByLabelText('Total paid ($)'), '40');
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'EUR');
    expect(within(dialog).getByLabelText('Total paid (€)')).toHaveValue(40);
    const rate = await within(dialog).findByLabelText('Exchange rate');
    await waitFor(() => expect(rate).toHaveValue(1.0832));
    expect(rate).toHaveAccessibleDescription(/1 EUR in USD\. The ECB reference rate of Mar 3, 2025\./);

    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'HUF');
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Exchange rate')).toHaveAccessibleDescription(/No rate is known/),
    );
    expect(within(dialog).getByLabelText('Exchange rate')).toHaveValue(null);
    await user.type(within(dialog).getByLabelText('Exchange rate'), '0.0028');
    await user.type(within(dialog).getByLabelText('Odometer (mi)'), '62');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    // The server's refusal is shown next to its field; nothing typed is lost.
    expect(await within(dialog).findByText(/lower than/)).toBeInTheDocument();
    expect(posted(fetchMock)).toMatchObject({
      currency: 'HUF',
      exchangeRate: 0.0028,
      rateSource: 'MANUAL',
      fuelPrice: 40,
      liters: 37.85,
      odometer: 100,
    });
    expect(within(dialog).getByLabelText('Exchange rate')).toHaveValue(0.0028);
    expect(within(dialog).getByLabelText('US gallons')).toHaveValue(10);
    // The typed rate is proposed next time for the pair.
    expect(localStorage.getItem('evdra:lastRate:HUF:USD')).toBe('0.0028');
  }, 20_000);
  it("a shared car's euro editor reads an opened record's own rate against the owner's lei, a typed one against euros", async () => {
    storeUser({ id: 2, username: 'bob', currency: 'EUR' });
    const logan = makeVehicle({
      id: 7,
      ownerId: 1,
      access: 'EDITOR',
      ownerCurrency: 'RON',
      fuelType: 'PETROL',
    });
    const { user, fetchMock } = open(<FuelPage />, {
      'GET /api/vehicles/7': () => jsonResponse(logan),
      'GET /api/fuel-consumptions/vehicle/7': () =>
        jsonResponse([
          fill({
            date: '2024-03-09',
            liters: 41,
            fuelPrice: 25_000,
            currency: 'HUF',
            // Stored to the owner's lei: 0.01267 lei for 1 forint.
            exchangeRate: 0.01267,
            rateDate: '2024-03-08',
            rateSource: 'ECB',
            version: 4,
          } as Partial<FuelEntry>),
        ]),
      'PUT /api/fuel-consumptions/1': (_url, init) => jsonResponse(JSON.parse(String(init?.body)), 200),
    });
    const card = (await screen.findByRole('heading', { name: 'Mar 9, 2024' })).closest('li') as HTMLElement;
    await user.click(within(card).getByRole('button', { name: /^Edit/ }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Fuel Entry' });
    const rate = within(edit).getByLabelText('Exchange rate');
    expect(rate).toHaveValue(0.01267);
    // Not "1 HUF in EUR": the stored rate is to the owner's lei.
    expect(rate).toHaveAccessibleDescription(/^1 HUF in RON\./);
    // A rate the editor types is to their own euros (the server converts it to the owner's lei).
    await user.clear(rate);
    await user.type(rate, '0.00255');
    expect(within(edit).getByLabelText('Exchange rate')).toHaveAccessibleDescription(/^1 HUF in EUR\./);
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(posted(fetchMock)).toMatchObject({
        currency: 'HUF',
        exchangeRate: 0.00255,
        rateSource: 'MANUAL',
      }),
    );
  }, 20_000);
});
