/**
 * Issue 51 on a vehicle's analytics: a two-fuel car reads one cost per km, one consumption figure
 * per fuel ("LPG 8.5 L/100 km + petrol 0.3 L/100 km") with the note that the distance per fuel is
 * estimated, each fuel's quantity in its own unit, and one chart line per fuel, by year and by
 * month. The user's and admin's analytics draw one fuel-cost series per fuel, named in its unit.
 * In Romanian too.
 */
import type { AnalyticsRow } from '@evdra/domain';
import { screen, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ro from '../../../../public/locales/ro/translation.json';
import { makeVehicle } from '../../../test/fixtures';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import AdminAnalyticsPage from './AdminAnalyticsPage';
import UserAnalyticsPage from './UserAnalyticsPage';
import VehicleAnalyticsPage from './VehicleAnalyticsPage';

vi.mock('react-chartjs-2', () => import('../../../test/chartMock'));
afterEach(async () => {
  await i18n.changeLanguage('en');
});

/** A chart's points as the test chart lists them, spaces (a unit's no-break one) as one space. */
const texts = (chart: HTMLElement) =>
  [...chart.querySelectorAll('li')].map((li) => (li.textContent ?? '').replace(/\s+/g, ' '));

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
  byFuel: split(8.18, null),
};
// The month before: LPG's first full fill (no span closed yet), petrol's only fill.
const february = {
  ...month,
  id: 202402,
  monthDate: '2024-02-01',
  totalFuelLiters: 50,
  totalFuelCost: 245,
  totalCost: 245,
  byFuel: [
    { fuelType: 'GPL', unit: 'L', quantity: 30, cost: 105, fills: 1, per100km: null },
    { fuelType: 'PETROL', unit: 'L', quantity: 20, cost: 140, fills: 1, per100km: 0.31 },
  ],
};
const routes = {
  'GET /api/vehicles/7': () => jsonResponse(ecoG),
  'GET /api/analytics/vehicle/7/recompute': () => jsonResponse([month, february]),
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
    expect(within(chart).getByText('LPG (L/100 km): 2023 = 9.1')).toBeInTheDocument();
    expect(within(chart).getByText('Petrol (L/100 km): 2024 = 0.31')).toBeInTheDocument();
    // The totals name each fuel's quantity, never litres of both added.
    const totals = screen.getByRole('region', { name: 'All-time totals' });
    expect(within(totals).getByText('170.00 L')).toBeInTheDocument();
    expect(within(totals).queryByText('195.00 L')).toBeNull();
    // One cost per km on the page's consumption.
    expect(within(panel).getAllByText(/\/km$/)).toHaveLength(1);
  });

  it('the monthly section draws one consumption line per fuel and each month card each fuel’s quantity', async () => {
    storeUser();
    // April: petrol only (LPG's entry says no fill).
    const april = {
      ...month,
      id: 202404,
      monthDate: '2024-04-01',
      totalFuelLiters: 5,
      totalFuelCost: 35.5,
      totalCost: 35.5,
      byFuel: [
        { fuelType: 'GPL', unit: 'L', quantity: 0, cost: 0, fills: 0, per100km: null },
        { fuelType: 'PETROL', unit: 'L', quantity: 5, cost: 35.5, fills: 1, per100km: null },
      ],
    };
    mockApi({
      ...routes,
      'GET /api/analytics/vehicle/7/recompute': () => jsonResponse([april, month, february]),
    });
    renderPage(<VehicleAnalyticsPage />, { path: '/analytics/:vehicleId', route: '/analytics/7' });
    const monthly = await screen.findByRole('region', { name: 'Monthly costs' });
    expect(
      within(monthly).getByRole('heading', { name: 'Consumption per fuel, by month' }),
    ).toBeInTheDocument();
    const lines = within(monthly).getByRole('list', { name: 'Consumption per fuel, by month' });
    expect(texts(lines)).toEqual([
      'LPG (L/100 km): Feb 2024 = null',
      'LPG (L/100 km): Mar 2024 = 8.18',
      'LPG (L/100 km): Apr 2024 = null',
      'Petrol (L/100 km): Feb 2024 = 0.31',
      'Petrol (L/100 km): Mar 2024 = null',
      'Petrol (L/100 km): Apr 2024 = null',
    ]);
    // The total cost line stays as it was.
    expect(within(monthly).getByRole('list', { name: 'Total cost per month' })).toHaveTextContent(
      'Total cost: Feb 2024 = 245Total cost: Mar 2024 = 788.25Total cost: Apr 2024 = 35.5',
    );
    // A month names only the fuels filled in it.
    const apr = screen.getByRole('listitem', { name: 'Apr 2024' });
    expect(within(apr).getByText('Petrol').nextSibling).toHaveTextContent('5.00 L');
    expect(within(apr).queryByText('LPG')).toBeNull();
    const feb = screen.getByRole('listitem', { name: 'Feb 2024' });
    expect(within(feb).getByText('LPG').nextSibling).toHaveTextContent('30.00 L');
    expect(within(feb).getByText('Petrol').nextSibling).toHaveTextContent('20.00 L');
    expect(within(feb).queryByText('50.00 L')).toBeNull();
  });

  it('a plug-in hybrid’s lines read kWh/100 km for its charges and the reader’s unit for petrol', async () => {
    storeUser({ consumptionUnit: 'MPG_UK' });
    const phev = makeVehicle({ id: 7, fuelType: 'PETROL', secondaryFuelType: 'ELECTRIC' });
    const phevSplit = (kwh: number | null, petrol: number | null) => [
      { fuelType: 'PETROL', unit: 'L', quantity: 40, cost: 280, fills: 2, per100km: petrol },
      { fuelType: 'ELECTRIC', unit: 'kWh', quantity: 120, cost: 96, fills: 6, per100km: kwh },
    ];
    mockApi({
      ...routes,
      'GET /api/vehicles/7': () => jsonResponse(phev),
      'GET /api/analytics/vehicle/7/recompute': () =>
        jsonResponse([{ ...month, byFuel: phevSplit(16.5, 5) }]),
      'GET /api/analytics/vehicle/7/total': () =>
        jsonResponse({ ...month, totalKm: 1000, costPerKm: 0.376, byFuel: phevSplit(16.5, 5) }),
      'GET /api/analytics/vehicle/7/yearly': () =>
        jsonResponse({ '2024': { ...month, byFuel: phevSplit(16.5, 5) } }),
    });
    renderPage(<VehicleAnalyticsPage />, { path: '/analytics/:vehicleId', route: '/analytics/7' });
    const lines = await screen.findByRole('list', { name: 'Consumption per fuel, by month' });
    // 5 L/100 km is 56.5 UK mpg; the charge keeps its kWh/100 km.
    const [petrolLine, electricLine] = texts(lines);
    expect(petrolLine).toMatch(/^Petrol \(mpg\): Mar 2024 = 56\.49/);
    expect(electricLine).toBe('Electric (kWh/100 km): Mar 2024 = 16.5');
    const card = screen.getByRole('listitem', { name: 'Mar 2024' });
    expect(within(card).getByText('Electric').nextSibling).toHaveTextContent('120.00 kWh');
    // The yearly table gives each fuel its own column: never 40 L and 120 kWh added into one.
    const yearly = screen.getByRole('table', { name: 'Yearly costs' });
    const headers = within(yearly)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['Petrol', 'Electric']));
    const row = within(yearly).getByRole('row', { name: /2024/ });
    expect(row).toHaveTextContent('40.00 L');
    expect(row).toHaveTextContent('120.00 kWh');
    expect(row).not.toHaveTextContent('160');
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

/** A user or admin row of the Logan Eco-G (or a one-fuel car), with its month's split by fuel. */
const row = (
  vehicleId: number,
  monthDate: string,
  byFuel: AnalyticsRow['byFuel'],
  model = 'Logan Eco-G',
): AnalyticsRow => {
  const fuel = (byFuel ?? []).reduce((sum, f) => sum + f.cost, 0);
  return {
    vehicleId,
    vehicleMake: 'Dacia',
    vehicleModel: model,
    ownerUsername: vehicleId === 7 ? 'ana' : 'bob',
    monthDate,
    totalCost: fuel,
    totalFuelCost: fuel,
    totalExpensesCost: 0,
    totalInsuranceCost: 0,
    totalRevisionCost: 0,
    currency: 'RON',
    byFuel,
  };
};
const fuelRows = [
  row(7, '2025-02-01', [{ fuelType: 'GPL', unit: 'L', quantity: 46, cost: 138, fills: 1 }]),
  row(8, '2025-02-01', [{ fuelType: 'CNG', unit: 'kg', quantity: 12.5, cost: 75, fills: 1 }], 'Sandero'),
  row(7, '2025-01-01', [
    { fuelType: 'PETROL', unit: 'L', quantity: 20, cost: 140, fills: 1 },
    { fuelType: 'GPL', unit: 'L', quantity: 30, cost: 90, fills: 1 },
  ]),
];

describe('the user’s and admin’s fuel cost per fuel', () => {
  it('my analytics: one bar series per fuel in its own unit, and each fuel’s quantity in all', async () => {
    storeUser();
    mockApi({ 'GET /api/analytics/user': () => jsonResponse(fuelRows) });
    const { user } = renderPage(<UserAnalyticsPage />, { path: '/analytics/user', route: '/analytics/user' });
    const section = await screen.findByRole('region', { name: 'Fuel cost per fuel, by month' });
    const chart = within(section).getByRole('list', { name: 'Fuel cost per fuel, by month' });
    expect(texts(chart)).toEqual([
      // The dearest fuel first.
      'LPG (L): Jan 2025 = 90',
      'LPG (L): Feb 2025 = 138',
      'Petrol (L): Jan 2025 = 140',
      'Petrol (L): Feb 2025 = null',
      'CNG (kg): Jan 2025 = null',
      'CNG (kg): Feb 2025 = 75',
    ]);
    expect(within(section).getByText('LPG: 76.00 L for lei 228.00, 2 fill-ups')).toBeInTheDocument();
    expect(within(section).getByText('CNG: 12.50 kg for lei 75.00, 1 fill-up')).toBeInTheDocument();
    // Picking the one-fuel car leaves one fuel: no split to draw.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Vehicle' }), 'Dacia Sandero');
    expect(screen.queryByRole('region', { name: 'Fuel cost per fuel, by month' })).toBeNull();
  });

  it('global analytics: the same split across owners, in Romanian', async () => {
    i18n.addResourceBundle('ro', 'translation', ro, true, true);
    await i18n.changeLanguage('ro');
    storeUser({ role: 'ADMIN', username: 'root', language: 'ro' });
    mockApi({
      'GET /api/analytics/admin/months': () => jsonResponse([]),
      'GET /api/analytics/admin/filter': () => jsonResponse(fuelRows),
    });
    const { user } = renderPage(<AdminAnalyticsPage />, {
      path: '/analytics/admin',
      route: '/analytics/admin',
    });
    // The per-vehicle rows are read when asked for (issue 54): here by the search box.
    await user.type(screen.getByRole('searchbox'), 'a');
    const name = 'Costul carburantului pe combustibil, pe luni';
    const section = await screen.findByRole('region', { name });
    const chart = within(section).getByRole('list', { name });
    expect(chart).toHaveTextContent('GPL (L): Feb 2025 = 138');
    expect(chart).toHaveTextContent('GNC (kg): Feb 2025 = 75');
    expect(chart).toHaveTextContent('Benzină (L): Jan 2025 = 140');
    expect(within(section).getByText('GNC: 12,50 kg pentru 75,00 lei, 1 alimentare')).toBeInTheDocument();
  });

  it('a user whose cars all burn one fuel sees no split', async () => {
    storeUser();
    const petrolOnly = [
      row(9, '2025-01-01', [{ fuelType: 'PETROL', unit: 'L', quantity: 20, cost: 140, fills: 1 }]),
    ];
    mockApi({ 'GET /api/analytics/user': () => jsonResponse(petrolOnly) });
    renderPage(<UserAnalyticsPage />, { path: '/analytics/user', route: '/analytics/user' });
    expect(await screen.findByRole('list', { name: 'Monthly cost per vehicle' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Fuel cost per fuel, by month' })).toBeNull();
  });
});
