import { type Listing, priceRating } from '@evdra/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import MarketplacePage from '../pages/MarketplacePage';
import { ListingFormModal } from './ListingFormModal';

function makeListing(overrides: Partial<Listing> = {}): Listing {
  const vehicle = {
    make: 'Skoda',
    year: 2010,
    engineSize: 1.6,
    odometer: 100_000,
    fuelType: 'PETROL' as const,
    aiScore: 7,
  };
  return {
    id: 5,
    vehicleId: 9,
    vehicleMake: 'Skoda',
    vehicleModel: 'Octavia',
    vehicleYear: 2010,
    engineSize: 1.6,
    odometer: 100_000,
    fuelType: 'PETROL',
    vehicleAiScore: 7,
    price: 15_000,
    description: 'Kept in a garage.',
    photoUrls: ['/api/marketplace/photos/aaaaaaaaaaaa', '/api/marketplace/photos/bbbbbbbbbbbb'],
    listedByUsername: 'bob',
    sellerId: 2,
    createdAt: '2025-01-01T00:00:00.000Z',
    priceRating: priceRating(15_000, vehicle),
    history: {
      services: 3,
      lastService: { date: '2024-05-02', km: 95_000 },
      recordsSince: '2019-03-01',
      fuelEntries: 12,
      consumptionPer100km: 6.4,
    },
    reportUrl: null,
    ...overrides,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('marketplace page', () => {
  it('a car priced in euros reads in euros to a Romanian buyer, with about how much it is in lei', async () => {
    storeUser({ id: 1, currency: 'RON' });
    mockApi({
      'GET /api/marketplace/listings': () => jsonResponse([makeListing({ currency: 'EUR' })]),
      'GET /api/fx/rate': (url) =>
        url.includes('from=EUR&to=RON')
          ? jsonResponse({
              from: 'EUR',
              to: 'RON',
              rate: 4.9764,
              date: '2025-03-03',
              source: 'ECB',
              carried: false,
            })
          : jsonResponse({ code: 'NOT_FOUND', message: 'none' }, 404),
    });
    renderPage(<MarketplacePage />);
    const card = await screen.findByRole('article', { name: 'Skoda Octavia' });
    expect(within(card).getByText('€15,000.00')).toBeInTheDocument();
    // 15,000 × 4.9764 = 74,646 lei.
    expect(await within(card).findByText('About lei 74,646.00 in your currency.')).toBeInTheDocument();
  });

  it('shows a card with price in €, rating bar at level × 20 %, factors on demand and the history line', async () => {
    storeUser({ id: 1 });
    mockApi({ 'GET /api/marketplace/listings': () => jsonResponse([makeListing()]) });
    const { user } = renderPage(<MarketplacePage />);
    const card = await screen.findByRole('article', { name: 'Skoda Octavia' });
    expect(within(card).getByText('€15,000.00')).toBeInTheDocument();
    // Estimate 9,980; 15,000 is 5,020 above → High (level 4).
    expect(within(card).getByText('High')).toBeInTheDocument();
    const bar = card.querySelector('.rating__bar span') as HTMLElement;
    expect(bar.style.width).toBe('80%');
    expect(within(card).queryByText(/Estimated value/)).toBeNull();
    await user.click(within(card).getByRole('button', { name: 'Why?' }));
    expect(within(card).getByText(/Estimated value €9,980.00/)).toBeInTheDocument();
    expect(within(card).getByText('Engine 1.6 L')).toBeInTheDocument();
    // The factors name the rating's currency and the reader's distance unit.
    expect(within(card).getByText('AI score 7/10: €15,000 − €1,000 × score')).toBeInTheDocument();
    expect(within(card).getByText('100,000 km below 200,000 km')).toBeInTheDocument();
    expect(
      within(card).getByText(
        '3 services · last May 2, 2024 at 95,000 km · records since Mar 1, 2019 · 12 fuel entries · 6.4 L/100 km',
      ),
    ).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: "I'm Interested" })).toBeInTheDocument();
    expect(within(card).queryByText('You listed this vehicle.')).toBeNull();
  });

  it('explains the rating to a miles reader in miles, its figures in the rating’s euros', async () => {
    storeUser({ id: 1, currency: 'RON', distanceUnit: 'mi' });
    mockApi({
      'GET /api/marketplace/listings': () =>
        jsonResponse([
          makeListing({ currency: 'EUR', priceRating: { ...makeListing().priceRating, currency: 'EUR' } }),
        ]),
      'GET /api/fx/rate': () => jsonResponse({ code: 'NOT_FOUND', message: 'none' }, 404),
    });
    const { user } = renderPage(<MarketplacePage />);
    const card = await screen.findByRole('article', { name: 'Skoda Octavia' });
    await user.click(within(card).getByRole('button', { name: 'Why?' }));
    // 100,000 km is 62,137 mi; 200,000 km is 124,274 mi.
    expect(within(card).getByText('62,137 mi below 124,274 mi')).toBeInTheDocument();
    expect(within(card).getByText('AI score 7/10: €15,000 − €1,000 × score')).toBeInTheDocument();
    expect(card.querySelector('.rating__why')?.textContent).not.toMatch(/km/);
  });

  it('links "Full history report" to the listing\'s public report page, and shows nothing without one', async () => {
    storeUser({ id: 1 });
    mockApi({
      'GET /api/marketplace/listings': () =>
        jsonResponse([makeListing({ reportUrl: '/r/abc' }), makeListing({ id: 6, vehicleModel: 'Fabia' })]),
    });
    renderPage(<MarketplacePage />);
    const card = await screen.findByRole('article', { name: 'Skoda Octavia' });
    const link = within(card).getByRole('link', { name: 'Full history report' });
    expect(link).toHaveAttribute('href', '/r/abc');
    expect(link).toHaveAttribute('target', '_blank');
    // The history line itself is unchanged.
    expect(within(card).getByText(/^3 services · last May 2, 2024/)).toBeInTheDocument();
    const other = screen.getByRole('article', { name: 'Skoda Fabia' });
    expect(within(other).queryByRole('link', { name: 'Full history report' })).toBeNull();
  });

  it("reads an electric car's history in kWh/100km, with no engine size on its card", async () => {
    storeUser({ id: 1 });
    const electric = makeListing({
      vehicleMake: 'Renault',
      vehicleModel: 'Zoe',
      fuelType: 'ELECTRIC',
      engineSize: 0,
      history: {
        services: 1,
        lastService: null,
        recordsSince: null,
        fuelEntries: 4,
        consumptionPer100km: 15.2,
      },
    });
    mockApi({ 'GET /api/marketplace/listings': () => jsonResponse([electric]) });
    renderPage(<MarketplacePage />);
    const card = await screen.findByRole('article', { name: 'Renault Zoe' });
    expect(within(card).getByText('1 service · 4 fuel entries · 15.2 kWh/100 km')).toBeInTheDocument();
    expect(within(card).queryByText(/L\/100km/)).toBeNull();
    expect(within(card).queryByText('Engine size')).toBeNull();
    expect(within(card).queryByText('0.0 L')).toBeNull();
  });

  it('shows Edit and Delete to the seller, N/A without a score, and the empty text', async () => {
    storeUser({ id: 2 });
    mockApi({
      'GET /api/marketplace/listings': () =>
        jsonResponse([
          makeListing({
            vehicleAiScore: null,
            priceRating: { label: 'N/A', level: 0, estimate: null, difference: null, factors: [] },
          }),
        ]),
    });
    renderPage(<MarketplacePage />);
    const card = await screen.findByRole('article', { name: 'Skoda Octavia' });
    expect(within(card).getByText('You listed this vehicle.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Edit listing Skoda Octavia' })).toBeInTheDocument();
    expect(within(card).getByText('Price rating: N/A (no AI score yet)')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: "I'm Interested" })).toBeNull();
  });

  it('says so when there are no listings', async () => {
    storeUser();
    mockApi({ 'GET /api/marketplace/listings': () => jsonResponse([]) });
    renderPage(<MarketplacePage />);
    expect(await screen.findByText('Loading or no listings available.')).toBeInTheDocument();
  });
});

describe('listing form', () => {
  it('names a missing vehicle and price next to the fields, then alerts Submission failed. and keeps the values', async () => {
    storeUser();
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    mockApi({
      'GET /api/marketplace/my-vehicles': () =>
        jsonResponse([{ id: 9, make: 'Skoda', model: 'Octavia', year: 2010 }]),
      'POST /api/marketplace/list': () => jsonResponse({ code: 'INTERNAL', message: 'boom' }, 500),
    });
    const onSaved = vi.fn();
    const { user } = renderPage(<ListingFormModal listing={null} onClose={() => {}} onSaved={onSaved} />);
    const dialog = screen.getByRole('dialog', { name: 'List a Vehicle' });
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Please select a vehicle.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a valid price.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Price (€)')).toHaveAttribute('aria-invalid', 'true');
    await within(dialog).findByRole('option', { name: 'Skoda Octavia (2010)' });
    await user.selectOptions(within(dialog).getByLabelText('Vehicle'), '9');
    await user.type(within(dialog).getByLabelText('Price (€)'), '4500');
    await user.type(within(dialog).getByLabelText('Description'), 'Nice');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Submission failed.'));
    expect(onSaved).not.toHaveBeenCalled();
    expect(within(dialog).getByLabelText('Price (€)')).toHaveValue(4500);
    expect(within(dialog).getByLabelText('Description')).toHaveValue('Nice');
  });

  it('shows a server conflict next to the vehicle field', async () => {
    storeUser();
    mockApi({
      'GET /api/marketplace/my-vehicles': () =>
        jsonResponse([{ id: 9, make: 'Skoda', model: 'Octavia', year: 2010 }]),
      'POST /api/marketplace/list': () =>
        jsonResponse(
          {
            code: 'CONFLICT',
            message: 'This vehicle is already listed.',
            details: [{ field: 'vehicleId', message: 'This vehicle is already listed.' }],
          },
          409,
        ),
    });
    const { user } = renderPage(<ListingFormModal listing={null} onClose={() => {}} onSaved={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'List a Vehicle' });
    await within(dialog).findByRole('option', { name: 'Skoda Octavia (2010)' });
    await user.selectOptions(within(dialog).getByLabelText('Vehicle'), '9');
    await user.type(within(dialog).getByLabelText('Price (€)'), '4500');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('This vehicle is already listed.')).toBeInTheDocument();
  });
});
