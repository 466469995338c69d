/**
 * Issue 51 on the fuel page: a two-fuel car's fill form picks the fuel (the primary first), labels
 * the quantity in that fuel's unit (litres or gallons, kg of CNG, kWh) and takes an optional
 * distance on this fuel; each fill reads in its own unit; a receipt's fuel is preselected when the
 * car uses it.
 */
import type { FuelEntry, FuelOcrPreview } from '@evdra/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import FuelPage from './FuelPage';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));

afterEach(() => vi.unstubAllGlobals());

const ecoG = makeVehicle({ id: 7, model: 'Logan Eco-G', fuelType: 'GPL', secondaryFuelType: 'PETROL' });
const cngCar = makeVehicle({
  id: 7,
  make: 'Skoda',
  model: 'Octavia G-TEC',
  fuelType: 'PETROL',
  secondaryFuelType: 'CNG',
});

const fill = (o: Partial<FuelEntry> = {}): FuelEntry => ({
  id: 1,
  vehicleId: 7,
  fuelType: 'GPL',
  liters: 32.4,
  fuelPrice: 119.56,
  pricePerLiter: 3.69,
  odometer: 120500,
  date: '2025-03-02',
  fullTank: true,
  missedPrevious: false,
  consumptionPer100km: 9.8,
  distanceOnThisFuel: null,
  ...o,
});

const posted = (fetchMock: ReturnType<typeof mockApi>, url: string) => {
  const call = fetchMock.mock.calls.find(([u, init]) => u === url && init?.method === 'POST');
  return JSON.parse(String(call?.[1]?.body)) as Record<string, unknown>;
};

const open = (routes: Parameters<typeof mockApi>[0]) => {
  const fetchMock = mockApi(routes);
  return { fetchMock, ...renderPage(<FuelPage />, { path: '/fuel/:vehicleId', route: '/fuel/7' }) };
};

describe('a two-fuel car on the fuel page', () => {
  it('an LPG + petrol car: the picker offers its two fuels (LPG first), each fill in litres, a petrol fill with its trip distance', async () => {
    storeUser({ id: 1 });
    const { user, fetchMock } = open({
      'GET /api/vehicles/7': () => jsonResponse(ecoG),
      'GET /api/fuel-consumptions/vehicle/7': () =>
        jsonResponse([
          fill(),
          fill({
            id: 2,
            date: '2025-02-20',
            fuelType: 'PETROL',
            liters: 5,
            fuelPrice: 36,
            pricePerLiter: 7.2,
            consumptionPer100km: 0.6,
          }),
        ]),
      'POST /api/fuel-consumptions': () => jsonResponse(fill({ id: 9 }), 201),
    });
    const lpg = (await screen.findByRole('heading', { name: 'Mar 2, 2025' })).closest('li') as HTMLElement;
    expect(within(lpg).getByText('LPG')).toBeInTheDocument();
    expect(within(lpg).getByText('32.40 L')).toBeInTheDocument();
    expect(within(lpg).getByText('9.8 L/100 km')).toBeInTheDocument();
    const petrol = screen.getByRole('heading', { name: 'Feb 20, 2025' }).closest('li') as HTMLElement;
    expect(within(petrol).getByText('Petrol')).toBeInTheDocument();
    expect(within(petrol).getByText('0.6 L/100 km')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add Manually' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Fuel Entry' });
    const picker = within(dialog).getByLabelText('Fuel type');
    expect(picker).toHaveValue('GPL');
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['LPG', 'Petrol']);
    await user.selectOptions(picker, 'PETROL');
    await user.type(within(dialog).getByLabelText('Litres'), '40');
    await user.type(within(dialog).getByLabelText('Total paid (€)'), '288');
    await user.type(within(dialog).getByLabelText('Distance on this fuel (km)'), '35');
    expect(within(dialog).getByLabelText('Distance on this fuel (km)')).toHaveAccessibleDescription(
      'Optional: the trip counter since the last fill of this fuel.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted(fetchMock, '/api/fuel-consumptions')).toMatchObject({
      vehicleId: 7,
      fuelType: 'PETROL',
      liters: 40,
      fuelPrice: 288,
      distanceOnThisFuel: 35,
    });
  }, 20_000);

  it('a petrol + CNG car read in gallons: CNG is typed and read in kg, petrol in gallons', async () => {
    storeUser({ id: 1, currency: 'USD', distanceUnit: 'mi', volumeUnit: 'USGAL', consumptionUnit: 'MPG_US' });
    const { user, fetchMock } = open({
      'GET /api/vehicles/7': () => jsonResponse(cngCar),
      'GET /api/fuel-consumptions/vehicle/7': () =>
        jsonResponse([
          fill({
            fuelType: 'CNG',
            liters: 12.45,
            fuelPrice: 16.17,
            pricePerLiter: 1.299,
            consumptionPer100km: 4.2,
            currency: 'USD',
          }),
        ]),
      'POST /api/fuel-consumptions': () => jsonResponse(fill({ id: 9, fuelType: 'CNG' }), 201),
    });
    const card = (await screen.findByRole('heading', { name: 'Mar 2, 2025' })).closest('li') as HTMLElement;
    expect(within(card).getByText('12.45 kg')).toBeInTheDocument();
    expect(within(card).getByText('4.2 kg/100 km')).toBeInTheDocument();
    expect(within(card).getByText('$1.299/kg')).toBeInTheDocument();
    expect(within(card).getByText('Price per kg')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add Manually' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Fuel Entry' });
    expect(within(dialog).getByLabelText('US gallons')).toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText('Fuel type'), 'CNG');
    await user.type(within(dialog).getByLabelText('Quantity (kg)'), '12.45');
    await user.type(within(dialog).getByLabelText('Total paid ($)'), '16.17');
    await user.type(within(dialog).getByLabelText('Price per kg ($)'), '1.299');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // kg are kept as typed: no gallon conversion.
    expect(posted(fetchMock, '/api/fuel-consumptions')).toMatchObject({
      fuelType: 'CNG',
      liters: 12.45,
      pricePerLiter: 1.299,
    });
  }, 20_000);

  it("a receipt's LPG is the picker's preselection; a diesel receipt on an LPG + petrol car is not, and says so", async () => {
    storeUser({ id: 1 });
    let answer: FuelOcrPreview | null = null;
    class Xhr {
      upload = {};
      status = 200;
      responseText = '';
      withCredentials = false;
      onload?: () => void;
      open() {}
      setRequestHeader() {}
      send() {
        this.responseText = JSON.stringify(answer);
        setTimeout(() => act(() => this.onload?.()), 0);
      }
      abort() {}
    }
    vi.stubGlobal('XMLHttpRequest', Xhr);
    const receipt = (fuelType: FuelOcrPreview['fuelType']): FuelOcrPreview =>
      ({
        date: '2025-03-12',
        liters: 32.4,
        fuelPrice: 119.56,
        pricePerLiter: 3.69,
        odometer: 121_000,
        fuelType,
        currency: 'EUR',
        confidence: {
          date: 0.95,
          liters: 0.95,
          fuelPrice: 0.95,
          pricePerLiter: 0.95,
          odometer: 0.9,
          fuelType: 0.95,
        },
        warnings: [],
        language: 'ro',
        source: 'ocr',
      }) as FuelOcrPreview;
    const { user } = open({
      'GET /api/vehicles/7': () => jsonResponse({ ...ecoG, fuelType: 'PETROL', secondaryFuelType: 'GPL' }),
      'GET /api/fuel-consumptions/vehicle/7': () => jsonResponse([]),
    });
    await screen.findByRole('heading', { name: /Logan Eco-G/ });
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff, 1])], 'r.jpg', { type: 'image/jpeg' });
    answer = receipt('GPL');
    await user.upload(screen.getByTestId('fuel-receipt-input'), photo);
    let dialog = await screen.findByRole('dialog', { name: 'Confirm OCR Data' });
    expect(within(dialog).getByLabelText(/Fuel type/)).toHaveValue('GPL');
    expect(dialog.querySelector('[data-ocr-check="fuelType"]')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    answer = receipt('DIESEL');
    await user.upload(screen.getByTestId('fuel-receipt-input'), photo);
    dialog = await screen.findByRole('dialog', { name: 'Confirm OCR Data' });
    expect(within(dialog).getByLabelText(/Fuel type/)).toHaveValue('PETROL');
    expect(dialog.querySelector('[data-ocr-check="fuelType"]')).toHaveTextContent(
      'The receipt names Diesel, which this vehicle does not use: check the fuel.',
    );
  }, 20_000);
});
