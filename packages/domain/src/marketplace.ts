import { z } from 'zod';
import { FuelType } from './enums.js';
import { Currency, RecordMoney, RecordMoneyFields } from './money-schemas.js';
import { IdCursor, PageLimit, TimeIdCursor } from './paging.js';

// ── Price rating (spec §9) ──

/** Brand factors of spec §9, matched on the start of the lower-cased make ("Mercedes-Benz" → mercedes). */
export const BRAND_FACTORS: Readonly<Record<string, number>> = {
  porsche: 1.5,
  bmw: 1.5,
  mercedes: 1.5,
  audi: 1.2,
  volkswagen: 1.2,
  dacia: 0.9,
  renault: 0.9,
  fiat: 0.9,
};

export const PRICE_RATING_LABELS = ['N/A', 'Very Low', 'Low', 'Fair', 'High', 'Very High'] as const;
export const PriceRatingLabel = z.enum(PRICE_RATING_LABELS);
export type PriceRatingLabel = z.infer<typeof PriceRatingLabel>;

export const PRICE_FACTOR_KEYS = ['aiScore', 'brand', 'age', 'engine', 'km', 'electric'] as const;
export const PriceFactor = z.object({
  key: z.enum(PRICE_FACTOR_KEYS),
  /** What the term is computed from: the score, the brand factor, years after 2000, litres, km below 200,000, 1/0. */
  input: z.number(),
  /** Euros this term adds to the estimate (the brand term is base × (factor − 1)). */
  amount: z.number(),
});
export type PriceFactor = z.infer<typeof PriceFactor>;

export const PriceRating = z.object({
  label: PriceRatingLabel,
  /** 0 (N/A) … 5 (Very High); the card's bar is level × 20 %. */
  level: z.number().int().min(0).max(5),
  estimate: z.number().nullable(),
  difference: z.number().nullable(),
  factors: z.array(PriceFactor),
  /**
   * The currency of `estimate`, `difference` and the factors' amounts (issue 50): the rating compares
   * every listing in euros (the spec's figures), a price in another currency at the day's rate. Null
   * when there is no rating (N/A), also for a price whose currency has no known rate.
   */
  currency: Currency.nullable().optional(),
});
export type PriceRating = z.infer<typeof PriceRating>;

export type PricedVehicle = {
  make: string;
  year: number;
  engineSize: number;
  odometer: number;
  fuelType: FuelType;
  aiScore: number | null;
};

const cents = (n: number) => Math.round(n * 100) / 100;

const BRANDS = Object.entries(BRAND_FACTORS);

export function brandFactor(make: string): number {
  const m = make.trim().toLowerCase();
  for (const [brand, factor] of BRANDS) if (m.startsWith(brand)) return factor;
  return 1;
}

/**
 * Spec §9, exactly: estimate = (15000 − 1000 × aiScore) × brand factor + 100 per year after 2000
 * + 300 per litre of engine + 5 per 1000 km below 200,000 km (pro rata) + 1000 if electric.
 * Difference = price − estimate: > 8000 Very High (5); > 4000 High (4); > −2000 Fair (3);
 * > −5000 Low (2); otherwise Very Low (1). N/A (level 0) without an AI score.
 */
export function priceRating(price: number, v: PricedVehicle): PriceRating {
  if (v.aiScore === null || v.aiScore === undefined)
    return { label: 'N/A', level: 0, estimate: null, difference: null, factors: [] };
  const base = 15000 - 1000 * v.aiScore;
  const factor = brandFactor(v.make);
  const years = Math.max(0, v.year - 2000);
  const kmBelow = Math.max(0, 200_000 - v.odometer);
  const factors: PriceFactor[] = [
    { key: 'aiScore', input: v.aiScore, amount: cents(base) },
    { key: 'brand', input: factor, amount: cents(base * (factor - 1)) },
    { key: 'age', input: years, amount: cents(100 * years) },
    { key: 'engine', input: v.engineSize, amount: cents(300 * v.engineSize) },
    { key: 'km', input: kmBelow, amount: cents((5 * kmBelow) / 1000) },
    {
      key: 'electric',
      input: v.fuelType === 'ELECTRIC' ? 1 : 0,
      amount: v.fuelType === 'ELECTRIC' ? 1000 : 0,
    },
  ];
  const estimate = cents(
    base * factor +
      100 * years +
      300 * v.engineSize +
      (5 * kmBelow) / 1000 +
      (v.fuelType === 'ELECTRIC' ? 1000 : 0),
  );
  const difference = cents(price - estimate);
  const [label, level] = ratingBand(difference);
  return { label, level, estimate, difference, factors };
}

export function ratingBand(difference: number): [PriceRatingLabel, number] {
  if (difference > 8000) return ['Very High', 5];
  if (difference > 4000) return ['High', 4];
  if (difference > -2000) return ['Fair', 3];
  if (difference > -5000) return ['Low', 2];
  return ['Very Low', 1];
}

// ── Listings ──

export const LISTING_DESCRIPTION_MAX = 2000;
export const LISTING_PHOTOS_MAX = 10;
export const CHAT_MESSAGE_MAX = 2000;
export const TRANSFER_MESSAGE = '[Vehicle transferred to buyer]';
export const SOLD_ELSEWHERE_MESSAGE = '[Vehicle sold to another buyer]';
export const INTEREST_SENT = 'Interest sent!';

const Price = z
  .number({ error: 'Enter a valid price.' })
  .finite('Enter a valid price.')
  .positive('Enter a valid price.')
  .max(9_999_999_999.99, 'Enter a valid price.');
const Description = z
  .string()
  .trim()
  .max(LISTING_DESCRIPTION_MAX, `At most ${LISTING_DESCRIPTION_MAX} characters.`)
  .default('');

/** POST /api/marketplace/list and the `data` part of list-with-photos. */
export const ListingCreateBody = z.object({
  vehicleId: z.number({ error: 'Please select a vehicle.' }).int().positive('Please select a vehicle.'),
  price: Price,
  description: Description,
  /** The price's currency (default: the seller's) and its rate to the seller's (issue 50). */
  ...RecordMoneyFields,
});
export type ListingCreateBody = z.infer<typeof ListingCreateBody>;

/** PATCH /api/marketplace/edit/{id} and the `data` part of edit-with-photos. */
export const ListingEditBody = z.object({
  price: Price,
  description: Description,
  /** Left out, the listing keeps its currency. */
  ...RecordMoneyFields,
  removePhotoUrls: z
    .array(z.string())
    .max(LISTING_PHOTOS_MAX * 2)
    .default([]),
});
export type ListingEditBody = z.infer<typeof ListingEditBody>;

/** What the records of the car prove, shown on its card. */
export const ListingHistory = z.object({
  services: z.number().int(),
  lastService: z.object({ date: z.string(), km: z.number().int() }).nullable(),
  /** Date of the oldest record of any kind (fuel, expense, insurance, service). */
  recordsSince: z.string().nullable(),
  fuelEntries: z.number().int(),
  /** Average L/100km over the full-tank fill-ups that have one. */
  consumptionPer100km: z.number().nullable(),
});
export type ListingHistory = z.infer<typeof ListingHistory>;

export const Listing = z.object({
  id: z.number().int(),
  vehicleId: z.number().int(),
  vehicleMake: z.string(),
  vehicleModel: z.string(),
  vehicleYear: z.number().int(),
  engineSize: z.number(),
  odometer: z.number().int(),
  fuelType: FuelType,
  /** The car's second fuel (issue 51; null: none): a card reads "Petrol + LPG". Always sent by the server. */
  secondaryFuelType: FuelType.nullable().optional(),
  vehicleAiScore: z.number().nullable(),
  price: z.number(),
  /** The price as listed: its currency and rate to the seller's (issue 50). */
  ...RecordMoney,
  description: z.string(),
  photoUrls: z.array(z.string()),
  listedByUsername: z.string(),
  sellerId: z.number().int(),
  createdAt: z.string(),
  priceRating: PriceRating,
  history: ListingHistory,
  /** The public history-report page made with the listing (`/r/{token}`); null when it has none. */
  reportUrl: z.string().nullable(),
});
export type Listing = z.infer<typeof Listing>;

/**
 * GET /api/marketplace/listings without `limit` answers at most this many listings (issue 54): every
 * market of today's sizes whole, as before paging; past it the answer says where to go on.
 */
export const MARKET_LIST_CAP = 10_000;
/** The largest page a client may ask of the listings. */
export const MARKET_PAGE_MAX = 200;
/** The page the web asks for (Load more). */
export const MARKET_PAGE_SIZE = 48;

/** `newest`: the latest listed first (the default); `rating`: the best deals first (see ListingFilters). */
export const LISTING_SORTS = ['newest', 'rating'] as const;
export const ListingSort = z.enum(LISTING_SORTS);
export type ListingSort = z.infer<typeof ListingSort>;

/** A price band's end: a number ≥ 0 (the query's text coerced). */
const BandEnd = z.coerce
  .number({ error: 'Enter a valid price.' })
  .finite('Enter a valid price.')
  .min(0, 'Enter a valid price.')
  .max(9_999_999_999.99, 'Enter a valid price.');

/**
 * Where a page of the listings ends: opaque to clients (pass on what the server sent). Newest first it
 * is the last listing's id; by rating `<rank>_<id>`, the rank being the price minus the estimate in
 * euros (1000000000000 for a listing without a rating, which come last).
 */
export const ListingCursor = z
  .string()
  .regex(/^(-?\d{1,13}(\.\d{1,2})?_)?[1-9]\d{0,9}$/, 'Use the cursor of the previous page.')
  .refine((s) => Number(s.split('_').pop()) <= 2_147_483_647, 'Use the cursor of the previous page.');

/**
 * GET /api/marketplace/listings filters (spec §5, done in SQL, issue 54): make and model contain
 * the text in any case; the fuel type contains it (either fuel, by code or common name);
 * the year contains the digits; km ≤ maxOdometer; the price between priceMin and priceMax, both in
 * `currency` (default EUR), compared with each listing's price in euros at the latest rate (a
 * listing in a currency without a known rate is outside every band). `sort=rating`: the lowest
 * price against its spec §9 estimate first, listings without a rating last. Paging: `limit`, `cursor`.
 */
export const ListingFilters = z
  .object({
    make: z.string().trim().max(50).optional(),
    model: z.string().trim().max(50).optional(),
    fuelType: z.string().trim().max(20).optional(),
    year: z.string().trim().max(4).optional(),
    maxOdometer: z.coerce.number().min(0).optional(),
    priceMin: BandEnd.optional(),
    priceMax: BandEnd.optional(),
    currency: Currency.optional(),
    sort: ListingSort.optional(),
    limit: z.coerce.number().int().min(1).max(MARKET_PAGE_MAX).optional(),
    cursor: ListingCursor.optional(),
  })
  .refine((f) => f.priceMin === undefined || f.priceMax === undefined || f.priceMin <= f.priceMax, {
    message: 'The highest price must not be below the lowest.',
    path: ['priceMax'],
  })
  .refine((f) => !f.cursor || f.cursor.includes('_') === (f.sort === 'rating'), {
    message: 'Use the cursor of the previous page.',
    path: ['cursor'],
  });
export type ListingFilters = z.infer<typeof ListingFilters>;

export const OwnedVehicle = z.object({
  id: z.number().int(),
  make: z.string(),
  model: z.string(),
  year: z.number().int(),
});
export type OwnedVehicle = z.infer<typeof OwnedVehicle>;

export const ConversationRole = z.enum(['seller', 'buyer']);
export type ConversationRole = z.infer<typeof ConversationRole>;

export const Conversation = z.object({
  interestId: z.number().int(),
  listingId: z.number().int(),
  counterparty: z.string(),
  vehicle: z.object({ make: z.string(), model: z.string(), year: z.number().int() }),
  /** The last message, '' when none yet. */
  message: z.string(),
  role: ConversationRole,
  updatedAt: z.string(),
  unread: z.number().int(),
  /** False once the listing is no longer active (sold or transferred). */
  listingActive: z.boolean(),
});
export type Conversation = z.infer<typeof Conversation>;

/**
 * GET /api/marketplace/conversations without `limit` answers at most this many conversations (issue
 * 54): every inbox of today's sizes whole, as before paging; past it X-Next-Cursor says where to go on.
 */
export const CONVERSATIONS_CAP = 10_000;
/** The largest page of conversations a client may ask for. */
export const CONVERSATIONS_PAGE_MAX = 200;
/** The page the web asks for (Load more). */
export const CONVERSATIONS_PAGE_SIZE = 30;

/**
 * Where a page of conversations ends: the TimeIdCursor of the page's last conversation (updatedAt,
 * interestId), the key the inbox is sorted by (latest activity first).
 */
export const ConversationCursor = TimeIdCursor;

/** GET /api/marketplace/conversations a page at a time: `limit` after `cursor` (issue 54). */
export const ConversationListQuery = z.object({
  limit: PageLimit(CONVERSATIONS_PAGE_MAX).optional(),
  cursor: ConversationCursor.optional(),
});
export type ConversationListQuery = z.infer<typeof ConversationListQuery>;

/**
 * GET /api/marketplace/chat/{interestId} without `limit` answers at most this many messages, oldest
 * first (issue 54); past it X-Next-Cursor says where the rest starts. POST answers the same first page.
 */
export const CHAT_LIST_CAP = 10_000;
/** The largest page of messages a client may ask for. */
export const CHAT_PAGE_MAX = 500;

/**
 * A conversation's messages, oldest first. Forwards: `after` (the last id seen, the web's poll) or
 * `cursor` (the X-Next-Cursor of the page before: the same thing, an id) start after a message;
 * `limit` asks for a page. Backwards (as a chat opens, at its newest): `last` asks for the newest
 * `last` messages, `before` (the X-Prev-Cursor of the page after: an id) for those before a message;
 * still oldest first within the page. The two ways do not mix.
 */
export const ChatQuery = z
  .object({
    after: z.coerce.number().int().min(0).optional(),
    limit: PageLimit(CHAT_PAGE_MAX).optional(),
    cursor: IdCursor.optional(),
    last: PageLimit(CHAT_PAGE_MAX).optional(),
    before: IdCursor.optional(),
  })
  .refine(
    (q) =>
      (q.last === undefined && q.before === undefined) ||
      (q.after === undefined && q.limit === undefined && q.cursor === undefined),
    { message: 'Use last and before, or after, limit and cursor, not both.', path: ['last'] },
  );
/** The page of earlier messages the web's chat asks for (Load earlier), and its first page. */
export const CHAT_PAGE_SIZE = 50;
export type ChatQuery = z.infer<typeof ChatQuery>;

export const MarketChatMessage = z.object({
  id: z.number().int(),
  sender: z.string(),
  content: z.string(),
  mine: z.boolean(),
  timestamp: z.string(),
});
export type MarketChatMessage = z.infer<typeof MarketChatMessage>;

export const MarketChatBody = z.object({
  message: z
    .string()
    .trim()
    .min(1, 'Type a message.')
    .max(CHAT_MESSAGE_MAX, `At most ${CHAT_MESSAGE_MAX} characters.`),
});

export const ListingIdParams = z.object({ listingId: z.coerce.number().int().positive() });
export const InterestIdParams = z.object({ interestId: z.coerce.number().int().positive() });
export const InterestResponse = z.object({ message: z.string(), interestId: z.number().int().optional() });
export type InterestResponse = z.infer<typeof InterestResponse>;
