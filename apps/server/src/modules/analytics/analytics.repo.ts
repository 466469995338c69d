import { and, desc, eq, gt, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { users, vehicleMonthCosts, vehicles } from '../../db/schema.js';

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

  async monthly(scope: Scope): Promise<MonthRow[]> {
    const c = vehicleMonthCosts;
    const where = [gt(sql`${c.liters} + ${c.fuel} + ${c.expenses} + ${c.insurance} + ${c.revisions}`, 0)];
    if (scope.vehicleId !== undefined) where.push(eq(c.vehicleId, scope.vehicleId));
    if (scope.ownerId !== undefined) where.push(eq(vehicles.ownerId, scope.ownerId));
    if (scope.from) where.push(gte(c.month, scope.from));
    if (scope.until) where.push(lt(c.month, scope.until));
    const rows = await this.db
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
      .where(and(...where))
      .orderBy(desc(c.month), c.vehicleId);
    return rows;
  }

  /** Lowest and highest odometer reading known for the vehicle (fuel entries, services, the vehicle itself). */
  async odometerSpan(vehicleId: number): Promise<{ low: number | null; high: number | null }> {
    const result = await this.db.execute(sql`
      with readings as (
        select odometer as km from fuel_entries where vehicle_id = ${vehicleId} and odometer is not null
        union all select km from revisions where vehicle_id = ${vehicleId}
      )
      select (select min(km) from readings) as low,
             greatest((select max(km) from readings), (select odometer from vehicles where id = ${vehicleId})) as high`);
    const [row] = rowsOf<{ low: string | number | null; high: string | number | null }>(result);
    return {
      low: row?.low == null ? null : Number(row.low),
      high: row?.high == null ? null : Number(row.high),
    };
  }
}
