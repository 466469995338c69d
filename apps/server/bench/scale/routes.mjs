// What the scale bench asks of the server: the read routes, as the named accounts hit them,
// and the three writes whose median it measures.
import { send } from '../lib.mjs';
import { BIG_CAR } from './accounts.mjs';
import { DATA_END } from './shape.mjs';

/** The web's page of listings (MARKET_PAGE_SIZE in the domain). */
const PAGE = 48;

/** The web's page of car-months (CAR_MONTHS_PAGE_MAX in the domain). */
const CAR_MONTHS_PAGE = 1000;

/** The web's pages of a car's records and of all the user's records (records/api.ts). */
const VEHICLE_PAGE = 100;
const RECORD_PAGE = 30;

/**
 * The read routes. `kind`: 'user' (p95 ≤ 50 ms and ≤ 1.5× the small set's), 'market' (p95 ≤ 50 ms at
 * full size), 'admin' (p95 ≤ 300 ms at full size), 'whole' (a list asked for without `limit`, as the
 * spec's route answers it, up to its cap: its size is the account's, the same at both sizes, so only
 * ≤ 1.5× the small set's; the web reads it a page at a time, measured as a 'user' route).
 */
export function readRoutes(sessions, s) {
  return routesOf(sessions, s).map((r) => ({ ...r, headers: { ...r.headers, ...ASKED_CODING } }));
}

/**
 * ACCEPT_ENCODING: the coding every read asks for. By default what the web app's browser asks
 * ('gzip, deflate, br'): the pages users read. 'identity' asks for none, as a script without a coding
 * does and as issue 54's figures before 2026-11-30 were measured (the bench's client then reads every
 * byte: a fleet's page of 1,000 car-months is 345 KB).
 */
export const ASKED_CODING = { 'accept-encoding': process.env.ACCEPT_ENCODING ?? 'gzip, deflate, br' };

function routesOf({ admin, fleet, driver }, s) {
  const d = s.driverCar;
  const user = (name, path, headers) => ({ name, path, headers, kind: 'user' });
  const market = (name, query) => ({
    name,
    path: `/api/marketplace/listings${query}`,
    headers: driver,
    kind: 'market',
  });
  const whole = (name, path, headers) => ({ name, path, headers, kind: 'whole' });
  const lastYear = `${Number(DATA_END.slice(0, 4)) - 1}-${DATA_END.slice(5, 7)}`;
  return [
    user('vehicles (1 car)', '/api/vehicles', driver),
    user('vehicles (fleet, 200)', '/api/vehicles', fleet),
    user('a vehicle', `/api/vehicles/${d}`, driver),
    whole('fuel of a car (20 y)', `/api/fuel-consumptions/vehicle/${d}`, driver),
    whole('fuel of a car (5,000)', `/api/fuel-consumptions/vehicle/${BIG_CAR}`, fleet),
    whole('fuel, all cars (fleet)', '/api/fuel-consumptions', fleet),
    // As the web reads them: a car's newest page, and the newest page over all the user's cars.
    user('fuel of a car (20 y), a page', `/api/fuel-consumptions/vehicle/${d}?limit=${VEHICLE_PAGE}`, driver),
    user(
      'fuel of a car (5,000), a page',
      `/api/fuel-consumptions/vehicle/${BIG_CAR}?limit=${VEHICLE_PAGE}`,
      fleet,
    ),
    user('fuel, all cars (fleet), a page', `/api/fuel-consumptions?limit=${RECORD_PAGE}`, fleet),
    user('expenses of a car', `/api/expenses/vehicle/${d}`, driver),
    user('policies of a car', `/api/insurance/vehicle/${d}`, driver),
    user('services of a car', `/api/revision/vehicle/${d}`, driver),
    user('renewals of a car', `/api/vehicles/${d}/renewals`, driver),
    user('analytics of a car', `/api/analytics/vehicle/${d}/recompute`, driver),
    user('analytics yearly', `/api/analytics/vehicle/${d}/yearly`, driver),
    user('analytics (5,000 fills)', `/api/analytics/vehicle/${BIG_CAR}/recompute`, fleet),
    user('analytics of the user', '/api/analytics/user', driver),
    whole('analytics of a fleet', '/api/analytics/user', fleet),
    // As the web reads them (CAR_MONTHS_PAGE_MAX car-months a page).
    user('analytics of a fleet, a page', `/api/analytics/user?limit=${CAR_MONTHS_PAGE}`, fleet),
    user('notifications', '/api/notifications', driver),
    // The web's first page of the bell's list (notifications LoadMore: 30 a page).
    user('notifications, a page', '/api/notifications?limit=30', driver),
    user('notifications count', '/api/notifications/count', driver),
    user('conversations', '/api/marketplace/conversations', driver),
    user('a conversation', '/api/marketplace/chat/1', driver),
    // As the web's chat opens (its newest CHAT_PAGE_SIZE) and as it polls (nothing new since the last id).
    user('a conversation, newest 50', '/api/marketplace/chat/1?last=50', driver),
    user('a conversation, poll', `/api/marketplace/chat/1?after=${2 ** 31 - 1}`, driver),
    user('my unlisted cars (fleet)', '/api/marketplace/my-vehicles', fleet),
    user('AI facts: costs', `/ai-feedback/vehicle/${d}/performance`, driver),
    user('AI facts: fuel', `/ai-feedback/vehicle/${d}/fuel`, driver),
    user('report (PDF)', `/api/vehicles/${d}/report.pdf`, driver),
    // The web's page of the market (Load more): MARKET_PAGE_SIZE listings a request.
    market('market: newest, a page', `?limit=${PAGE}`),
    market('market: by rating, a page', `?sort=rating&limit=${PAGE}`),
    market('market: make', `?make=Dacia&limit=${PAGE}`),
    market('market: a rare make', `?make=Porsche&limit=${PAGE}`),
    market('market: model', `?model=Logan&limit=${PAGE}`),
    market('market: fuel', `?fuelType=DIESEL&limit=${PAGE}`),
    market('market: a rare fuel', `?fuelType=electric&limit=${PAGE}`),
    market('market: year', `?year=2015&limit=${PAGE}`),
    market('market: km ≤ 100,000', `?maxOdometer=100000&limit=${PAGE}`),
    market('market: price band', `?priceMin=5000&priceMax=6000&limit=${PAGE}`),
    market('market: price band by rating', `?priceMin=5000&priceMax=6000&sort=rating&limit=${PAGE}`),
    user('market: a listing', '/api/marketplace/listings/1', driver),
    {
      // Without limit: up to CAR_MONTHS_CAP car-months.
      name: 'admin analytics, 12 months',
      path: `/api/analytics/admin/filter?start=${lastYear}&end=${DATA_END.slice(0, 7)}`,
      headers: admin,
      kind: 'admin',
    },
    {
      // As the admin page reads them (CAR_MONTHS_PAGE_MAX car-months a page).
      name: 'admin analytics, 12 months, a page',
      path: `/api/analytics/admin/filter?start=${lastYear}&end=${DATA_END.slice(0, 7)}&limit=${CAR_MONTHS_PAGE}`,
      headers: admin,
      kind: 'admin',
    },
    {
      // The same year added up across all cars, from the rollup kept for it (migration 0036).
      name: 'admin analytics by month, 12 months',
      path: `/api/analytics/admin/months?start=${lastYear}&end=${DATA_END.slice(0, 7)}`,
      headers: admin,
      kind: 'admin',
    },
  ];
}

const PROBE_MESSAGE = 'Still for sale?';

/**
 * The writes; `fn(i)` sends the i-th of a run of each. `cleanUp()` deletes the listings and messages
 * the run made, so that a kept database has as many cars to list next time and the measured
 * conversation as many messages at both sizes (`client`: the database's, for the messages, which
 * no route deletes).
 */
export async function writes(base, { fleet, driver }, client) {
  const big = await send('GET', base, `/api/vehicles/${BIG_CAR}`, fleet);
  const unlisted = await send('GET', base, '/api/marketplace/my-vehicles', fleet);
  // After the car's newest fill (a kept database has those of earlier runs): four fills a day.
  const [newest] = await send('GET', base, `/api/fuel-consumptions/vehicle/${BIG_CAR}?limit=1`, fleet);
  const from = Date.parse(newest?.date ?? DATA_END);
  const day = (i) => new Date(from + (1 + Math.floor(i / 4)) * 86_400_000).toISOString().slice(0, 10);
  const listed = [];
  const run = {
    'fill-up into the 5,000-fill car': (i) =>
      send('POST', base, '/api/fuel-consumptions', fleet, {
        vehicleId: BIG_CAR,
        fuelType: big.fuelType,
        liters: 40,
        fuelPrice: 280,
        odometer: big.odometer + 600 * (i + 1),
        date: day(i),
        fullTank: true,
        missedPrevious: false,
      }),
    // Each write lists the next of fleet_0001's cars without a listing.
    'a new listing': async (i) => {
      const listing = await send('POST', base, '/api/marketplace/list', fleet, {
        vehicleId: unlisted[i].id,
        price: 9000 + i,
        description: 'Fleet car, full service history.',
      });
      listed.push(listing.id);
    },
    'a message': (i) =>
      send('POST', base, '/api/marketplace/chat/1', driver, { message: `${PROBE_MESSAGE} (${i})` }),
  };
  const cleanUp = async () => {
    for (const id of listed.splice(0))
      await send('DELETE', base, `/api/marketplace/delete-permanent/${id}`, fleet);
    // Those of earlier runs too: a kept database measured before this clean-up existed has them.
    await client.query('delete from market_messages where interest_id = 1 and content like $1', [
      `${PROBE_MESSAGE} (%)`,
    ]);
  };
  return { run, cleanUp };
}
