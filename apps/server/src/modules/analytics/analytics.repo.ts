import { and, desc, eq, gt, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users, vehicleMonthCosts, vehicles } from '../../db/schema.js';
import { namedStatement } from '../../db/statement.js';

/** Sums of one vehicle-month, straight from SQL (numerics arrive as strings). */
export type MonthRow = {
  vehicleId: number;
  make: string;
  model: string;
  ownerUsername: string;
  month: string;
  liters: number;
  fuel: number;
  expenses: number;
  insurance: number;
  revisions: number;
};

/** Odometer bounds; numerics may arrive as strings. */
type SpanRow = { low: string | number | null; high: string | number | null };

export type Scope = {
  vehicleId?: number;
  ownerId?: number;
  /** Inclusive first day and exclusive end day (YYYY-MM-DD). */
  from?: string;
  until?: string;
};

/**
 * Cost analytics from the monthly rollup the database keeps (vehicle_month_costs). A policy's price
 * counts in the month its startDate falls in; fuel, expenses and revisions in the month of their date.
 */
export class AnalyticsRepo {
  constructor(private readonly db: Db) {}

  /** The months in scope, newest first, then by vehicle; only months with some cost. */
  async monthly(scope: Scope): Promise<MonthRow[]> {
    const q = this.statements();
    if (scope.vehicleId !== undefined) {
      return scope.ownerId !== undefined
        ? q.ownedVehicle.execute({ vehicleId: scope.vehicleId, ownerId: scope.ownerId })
        : q.vehicle.execute({ vehicleId: scope.vehicleId });
    }
    if (scope.ownerId !== undefined) return q.owner.execute({ ownerId: scope.ownerId });
    return q.range.execute({ from: scope.from ?? '-infinity', until: scope.until ?? 'infinity' });
  }

  // Named statements: PostgreSQL parses and plans each once per connection (the planning was a
  // quarter of these calls' database time), and drizzle builds each query once.
  private prepared: ReturnType<AnalyticsRepo['prepare']> | undefined;
  private statements() {
    this.prepared ??= this.prepare();
    return this.prepared;
  }

  private prepare() {
    const c = vehicleMonthCosts;
    const months = (...where: SQL[]) =>
      this.db
        .select({
          vehicleId: c.vehicleId,
          make: vehicles.make,
          model: vehicles.model,
          ownerUsername: users.username,
          month: c.month,
          liters: c.liters,
          fuel: c.fuel,
          expenses: c.expenses,
          insurance: c.insurance,
          revisions: c.revisions,
        })
        .from(c)
        .innerJoin(vehicles, eq(vehicles.id, c.vehicleId))
        .innerJoin(users, eq(users.id, vehicles.ownerId))
        .where(
          and(
            gt(sql`${c.liters} + ${c.fuel} + ${c.expenses} + ${c.insurance} + ${c.revisions}`, 0),
            ...where,
          ),
        )
        .orderBy(desc(c.month), c.vehicleId);
    const vehicleId = eq(c.vehicleId, sql.placeholder('vehicleId'));
    const ownerId = eq(vehicles.ownerId, sql.placeholder('ownerId'));
    return {
      vehicle: months(vehicleId).prepare('analytics_vehicle_months'),
      ownedVehicle: months(vehicleId, ownerId).prepare('analytics_owned_vehicle_months'),
      owner: months(ownerId).prepare('analytics_owner_months'),
      range: months(gte(c.month, sql.placeholder('from')), lt(c.month, sql.placeholder('until'))).prepare(
        'analytics_range_months',
      ),
    };
  }

  /** Lowest and highest odometer reading known for the vehicle (fuel entries, services, the vehicle itself). */
  async odometerSpan(vehicleId: number): Promise<{ low: number | null; high: number | null }> {
    this.span ??= namedStatement<SpanRow>(
      this.db,
      'vehicle_odometer_span',
      sql`
        with readings as (
          select odometer as km from fuel_entries where vehicle_id = ${sql.placeholder('id')} and odometer is not null
          union all select km from revisions where vehicle_id = ${sql.placeholder('id')}
        )
        select (select min(km) from readings) as low,
               greatest((select max(km) from readings),
                        (select odometer from vehicles where id = ${sql.placeholder('id')})) as high`,
    );
    const [row] = await this.span({ id: vehicleId });
    return {
      low: row?.low == null ? null : Number(row.low),
      high: row?.high == null ? null : Number(row.high),
    };
  }
  private span: ((values: { id: number }) => Promise<SpanRow[]>) | undefined;
}
