import { countryOfLanguage, type User } from '@evdra/domain';
import type { UserRow, UsersRepo, VehicleSummary } from './users.repo.js';

const present = (r: UserRow, vehicles: VehicleSummary[]): User => ({
  id: r.id,
  username: r.username,
  email: r.email,
  role: r.role,
  status: r.status,
  gdprConsent: r.gdprConsent,
  language: r.language,
  country: r.country ?? countryOfLanguage(r.language),
  currency: r.currency,
  distanceUnit: r.distanceUnit,
  volumeUnit: r.volumeUnit,
  consumptionUnit: r.consumptionUnit,
  createdAt: r.createdAt.toISOString(),
  vehicles,
});

/** Domain view of a user row (never the password hash), with its vehicles read alongside. */
export async function presentUser(repo: UsersRepo, row: UserRow): Promise<User> {
  return present(row, await repo.vehiclesOf(row.id));
}
