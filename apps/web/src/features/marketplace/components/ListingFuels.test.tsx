import { type Listing, priceRating } from '@evdra/domain';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import MarketplacePage from '../pages/MarketplacePage';

// Issue 51: a two-fuel car's listing names both fuels.
const listing = {
  id: 5,
  vehicleId: 9,
  vehicleMake: 'Dacia',
  vehicleModel: 'Logan Eco-G',
  vehicleYear: 2023,
  engineSize: 1.0,
  odometer: 30_000,
  fuelType: 'PETROL',
  secondaryFuelType: 'GPL',
  vehicleAiScore: null,
  price: 12_000,
  description: 'Factory LPG.',
  photoUrls: [],
  listedByUsername: 'bob',
  sellerId: 2,
  createdAt: '2025-01-01T00:00:00.000Z',
  priceRating: priceRating(12_000, {
    make: 'Dacia',
    year: 2023,
    engineSize: 1,
    odometer: 30_000,
    fuelType: 'PETROL',
    aiScore: null,
  }),
  history: { services: 0, lastService: null, recordsSince: null, fuelEntries: 0, consumptionPer100km: null },
  reportUrl: null,
} as unknown as Listing;

describe('a two-fuel listing', () => {
  it('reads "Petrol + LPG"', async () => {
    storeUser({ id: 1 });
    mockApi({ 'GET /api/marketplace/listings': () => jsonResponse([listing]) });
    renderPage(<MarketplacePage />);
    const card = (await screen.findByRole('heading', { name: /Dacia Logan Eco-G/ })).closest(
      'article, li',
    ) as HTMLElement;
    expect(within(card).getByText('Petrol + LPG')).toBeInTheDocument();
  });
});
