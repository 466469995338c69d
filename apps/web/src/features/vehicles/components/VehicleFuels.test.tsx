/**
 * Issue 51 in the vehicle form: a second fuel from the allowed pairs only (LPG or CNG with petrol,
 * electricity with petrol or diesel) and each tank's or battery's size in its unit.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import { VehicleFormModal } from './VehicleFormModal';

vi.mock('../../../lib/offline-db', () => ({
  loadVehicles: vi.fn(async () => []),
  saveVehicles: vi.fn(async () => undefined),
}));

const sent = (fetchMock: ReturnType<typeof mockApi>, method: string) =>
  JSON.parse(String(fetchMock.mock.calls.find(([, init]) => init?.method === method)?.[1]?.body)) as Record<
    string,
    unknown
  >;
const optionTexts = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('a vehicle with two fuels', () => {
  it('a new Logan Eco-G: petrol offers LPG, CNG or electricity second, diesel only electricity; tanks in litres', async () => {
    storeUser();
    const fetchMock = mockApi({
      'POST /api/vehicles': (_u, init) =>
        jsonResponse({ ...makeVehicle({ id: 5 }), ...JSON.parse(String(init?.body)) }, 201),
    });
    const onSaved = vi.fn();
    const { user } = renderPage(<VehicleFormModal vehicle={null} onClose={() => {}} onSaved={onSaved} />);
    const dialog = screen.getByRole('dialog', { name: 'Add vehicle' });
    await user.type(within(dialog).getByLabelText('Make'), 'Dacia');
    await user.type(within(dialog).getByLabelText('Model'), 'Logan Eco-G');
    await user.type(within(dialog).getByLabelText('Year'), '2023');
    await user.type(within(dialog).getByLabelText('Registration number'), 'B-51-GPL');
    await user.type(within(dialog).getByLabelText('Engine size (L)'), '1.0');
    await user.type(within(dialog).getByLabelText('Odometer (km)'), '1000');

    const second = within(dialog).getByLabelText('Second fuel');
    expect(optionTexts(second)).toEqual(['None', 'LPG', 'CNG', 'Electric']);
    await user.selectOptions(within(dialog).getByLabelText('Fuel type'), 'DIESEL');
    expect(optionTexts(within(dialog).getByLabelText('Second fuel'))).toEqual(['None', 'Electric']);
    await user.selectOptions(within(dialog).getByLabelText('Fuel type'), 'PETROL');
    // One fuel: one tank.
    expect(within(dialog).queryByLabelText('Tank for LPG (L)')).toBeNull();
    await user.selectOptions(within(dialog).getByLabelText('Second fuel'), 'GPL');
    await user.type(within(dialog).getByLabelText('Tank for petrol (L)'), '40');
    await user.type(within(dialog).getByLabelText('Tank for LPG (L)'), '32');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent(fetchMock, 'POST')).toMatchObject({
      fuelType: 'PETROL',
      secondaryFuelType: 'GPL',
      tankCapacity: 40,
      secondaryTankCapacity: 32,
    });
  }, 30_000);

  it('a gallons reader edits a plug-in hybrid: the petrol tank in gallons, the battery in kWh; removing the second fuel sends null', async () => {
    storeUser({ volumeUnit: 'USGAL' });
    const phev = makeVehicle({
      id: 3,
      fuelType: 'PETROL',
      secondaryFuelType: 'ELECTRIC',
      tankCapacity: 37.85,
      secondaryTankCapacity: 13.8,
    });
    const fetchMock = mockApi({
      'PUT /api/vehicles/3': (_u, init) => jsonResponse({ ...phev, ...JSON.parse(String(init?.body)) }),
    });
    const onSaved = vi.fn();
    const { user } = renderPage(<VehicleFormModal vehicle={phev} onClose={() => {}} onSaved={onSaved} />);
    const dialog = screen.getByRole('dialog', { name: 'Edit vehicle' });
    expect(within(dialog).getByLabelText('Second fuel')).toHaveValue('ELECTRIC');
    expect(within(dialog).getByLabelText('Tank for petrol (gal)')).toHaveValue(10);
    expect(within(dialog).getByLabelText('Battery (kWh)')).toHaveValue(13.8);
    await user.selectOptions(within(dialog).getByLabelText('Second fuel'), '');
    expect(within(dialog).queryByLabelText('Battery (kWh)')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent(fetchMock, 'PUT')).toMatchObject({
      fuelType: 'PETROL',
      secondaryFuelType: null,
      tankCapacity: 37.85,
      secondaryTankCapacity: null,
    });
  }, 30_000);
});
