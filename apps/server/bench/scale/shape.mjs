// The shape of the country-scale data set (issue 54): how many rows of each kind at a SCALE, and
// where the named accounts and their cars sit. Pure numbers; seed.mjs turns them into SQL.

/** The counts at SCALE=1. */
export const FULL = {
  users: 500_000,
  vehicles: 600_000,
  fills: 20_000_000,
  expenses: 5_000_000,
  services: 1_500_000,
  policies: 750_000,
  listings: 100_000,
  notifications: 500_000,
  shares: 50_000,
  // Not in the list: enough conversations that a buyer has a few (6 messages each).
  interests: 20_000,
};

/** The car of fleet_0001 with 5,000 fill-ups, and driver_000001's 20 years of records: at every SCALE. */
export const BIG_CAR_FILLS = 5_000;
export const DRIVER_CAR = { fills: 1_040, expenses: 240, services: 40, policies: 20, years: 20 };
export const FLEET_SIZE = 200;
/** Fixed "today" of the data set, so a seed is the same whenever it runs. */
export const DATA_END = '2026-11-15';

/**
 * Counts at `scale`. User ids: 1 admin_scale, 2 fleet_0001, 3 driver_000001, 4…fleets+2 the other
 * fleets, then the drivers. Vehicle ids: 1…200 fleet_0001 (1 has the 5,000 fills), then the other
 * fleets' cars, then driver_000001's car, then the drivers' cars (most drivers one, some two).
 */
export function shape(scale) {
  const n = (k) => Math.round(FULL[k] * scale);
  const fleets = Math.max(1, Math.round(100 * scale));
  const users = Math.max(fleets + 10, n('users'));
  const vehicles = Math.max(FLEET_SIZE * fleets + 10, n('vehicles'));
  const driverCar = FLEET_SIZE * fleets + 1;
  const regularCars = vehicles - driverCar;
  const min = (k, floor) => Math.max(floor, n(k));
  return {
    scale,
    fleets,
    users,
    vehicles,
    driverCar,
    /** Drivers (not admin, not fleets, not driver_000001): ids fleets+3 … users. */
    firstDriver: fleets + 3,
    drivers: users - fleets - 2,
    fills: min('fills', BIG_CAR_FILLS + DRIVER_CAR.fills + regularCars),
    expenses: min('expenses', DRIVER_CAR.expenses + regularCars),
    services: min('services', DRIVER_CAR.services),
    policies: min('policies', DRIVER_CAR.policies),
    listings: Math.min(regularCars, min('listings', 10)),
    notifications: min('notifications', 200),
    shares: Math.min(regularCars, min('shares', 5)),
    interests: min('interests', 10),
  };
}

/** A real market mix (Romania-like): make, model, weight, and the fuel when the model has only one. */
export const MODELS = [
  ['Dacia', 'Logan', 14],
  ['Dacia', 'Sandero', 12],
  ['Dacia', 'Duster', 10],
  ['Dacia', 'Spring', 1, 'ELECTRIC'],
  ['Volkswagen', 'Golf', 9],
  ['Volkswagen', 'Passat', 7],
  ['Volkswagen', 'Polo', 4],
  ['Skoda', 'Octavia', 8],
  ['Skoda', 'Fabia', 4],
  ['Renault', 'Clio', 5],
  ['Renault', 'Megane', 5],
  ['Renault', 'Zoe', 1, 'ELECTRIC'],
  ['Ford', 'Focus', 5],
  ['Opel', 'Astra', 5],
  ['Toyota', 'Corolla', 3],
  ['Toyota', 'Yaris', 3],
  ['BMW', '3 Series', 4],
  ['Audi', 'A4', 4],
  ['Mercedes-Benz', 'C-Class', 3],
  ['Hyundai', 'Tucson', 3],
  ['Seat', 'Leon', 2],
  ['Kia', 'Sportage', 2],
  ['Tesla', 'Model 3', 1, 'ELECTRIC'],
];
