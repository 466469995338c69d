import type { User } from '@evdra/domain';
import type { UserRow, UsersRepo, UserWithVehicles, VehicleSummary } from './users.repo.js';

/** Domain view of a user row: never the password hash. */
export async function presentUsers(repo: UsersRepo, rows: UserRow[]): Promise<User[]> {
  const vehicles = await repo.vehiclesOf(rows.map((r) => r.id));
  return rows.map((r) => present(r, vehicles.get(r.id) ?? []));
}

/** A user read with its vehicles in the same statement (UsersRepo.findWithVehicles). */
export const presentUserWithVehicles = (row: UserWithVehicles): User => present(row, row.vehicles);

const present = (r: UserRow, vehicles: VehicleSummary[]): User => ({
  id: r.id,
  username: r.username,
  email: r.email,
  role: r.role,
  status: r.status,
  gdprConsent: r.gdprConsent,
  language: r.language,
  createdAt: r.createdAt.toISOString(),
  vehicles,
});

export async function presentUser(repo: UsersRepo, row: UserRow): Promise<User> {
  const [user] = await presentUsers(repo, [row]);
  return user as User;
}
