/**
 * Issue 51 on a vehicle's analytics: a two-fuel car reads one cost per km, one consumption figure
 * per fuel ("LPG 8.5 L/100 km + petrol 0.3 L/100 km") with the note that the distance per fuel is
 * estimated, each fuel's quantity in its own unit, and one chart line per fuel. In Romanian too.
 */
import { screen, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ro from '../../../../public/locales/ro/translation.json';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import VehicleAnalyticsPage from './VehicleAnalyticsPage';

vi.mock('react-chartjs-2', () => import('../../../test/chartMock'));
afterEach(async () => {
  await i18n.changeLanguage('en');
});

const ecoG = makeVehicle({ id: 7, model: 'Logan Eco-G', fuelType: 'GPL', secondaryFuelType: 'PETROL' });
const cost = { totalExpensesCost: 0, totalInsuranceCost: 0, totalRevisionCost: 0 };
const split = (gpl: number | null, petrol: number | null) => [
  { fuelType: 'GPL', unit: 'L', quantity: 170, cost: 612.75, fills: 5, per100km: gpl },
  { fuelType: 'PETROL', unit: 'L', quantity: 25, cost: 175.5, fills: 2, per100km: petrol },
];
const month = {
  id: 202403,
  monthDate: '2024-03-01',
  totalFuelLiters: 195,
  totalFuelCost: 788.25,
  ...cost,
  totalCost: 788.25,
};
const routes = {
  'GET /api/vehicles/7': () => jsonResponse(ecoG),
  'GET /api/analytics/vehicle/7/recompute': () => jsonResponse([month]),
  'GET /api/analytics/vehicle/7/total': () =>
    jsonResponse({
      totalFuelLiters: 195,
      totalFuelCost: 788.25,
      ...cost,
      totalCost: 788.25,
      totalKm: 1650,
      costPerKm: 0.4777,
      byFuel: split(8.48, 0.31),
    }),
  'GET /api/analytics/vehicle/7/yearly': () =>
    jsonResponse({
      '2023': { totalFuelLiters: 50, totalFuelCost: 200, ...cost, totalCost: 200, byFuel: split(9.1, null) },
      '2024': {
        totalFuelLiters: 195,
        totalFuelCost: 788.25,
        ...cost,
        totalCost: 788.25,
        byFuel: split(8.48, 0.31),
      },
    }),
};

describe('a two-fuel car on its analytics', () => {
  it('one cost per km, one figure per fuel, the estimate note, quantities per fuel, a line per fuel', async () => {
    storeUser();
    mockApi(routes);
    renderPage(<VehicleAnalyticsPage />, { path: '/analytics/:vehicleId', route: '/analytics/7' });
    const panel = await screen.findByTestId('fuel-split');
    expect(within(panel).getByText('LPG 8.5 L/100 km + petrol 0.3 L/100 km')).toBeInTheDocument();
    expect(within(panel).getByText('€0.48/km')).toBeInTheDocument();
    expect(within(panel).getByText('LPG: 170.00 L for €612.75, 5 fill-ups')).toBeInTheDocument();
    expect(
      within(panel).getByText(/distance on each fuel is estimated unless fill-ups give their trip distance/),
    ).toBeInTheDocument();
    const chart = within(panel).getByRole('list', { name: 'Consumption per fuel, by year' });
    expect(within(chart).getByText('LPG: 2023 = 9.1')).toBeInTheDocument();
    expect(within(chart).getByText('Petrol: 2024 = 0.31')).toBeInTheDocument();
    // The totals name each fuel's quantity, never litres of both added.
    const totals = screen.getByRole('region', { name: 'All-time totals' });
    expect(within(totals).getByText('170.00 L')).toBeInTheDocument();
    expect(within(totals).queryByText('195.00 L')).toBeNull();
    // One cost per km on the page's consumption.
    expect(within(panel).getAllByText(/\/km$/)).toHaveLength(1);
  });

  it('in Romanian: GPL and benzină', async () => {
    i18n.addResourceBundle('ro', 'translation', ro, true, true);
    await i18n.changeLanguage('ro');
    storeUser({ language: 'ro' });
    mockApi(routes);
    renderPage(<VehicleAnalyticsPage />, { path: '/analytics/:vehicleId', route: '/analytics/7' });
    const panel = await screen.findByTestId('fuel-split');
    expect(within(panel).getByText('GPL 8,5 L/100 km + benzină 0,3 L/100 km')).toBeInTheDocument();
    expect(within(panel).getByText(/distanța pe fiecare combustibil e estimată/)).toBeInTheDocument();
  });

  it('a one-fuel car has no split panel', async () => {
    storeUser();
    mockApi({
      ...routes,
      'GET /api/vehicles/7': () => jsonResponse({ ...ecoG, secondaryFuelType: null }),
      'GET /api/analytics/vehicle/7/total': () =>
        jsonResponse({
          totalFuelLiters: 195,
          totalFuelCost: 788.25,
          ...cost,
          totalCost: 788.25,
          totalKm: 1650,
          costPerKm: 0.4777,
          byFuel: [{ fuelType: 'GPL', unit: 'L', quantity: 195, cost: 788.25, fills: 7, per100km: 9 }],
        }),
    });
    renderPage(<VehicleAnalyticsPage />, { path: '/analytics/:vehicleId', route: '/analytics/7' });
    expect((await screen.findAllByText('195.00 L')).length).toBeGreaterThan(0);
    expect(screen.queryByTestId('fuel-split')).toBeNull();
  });
});
