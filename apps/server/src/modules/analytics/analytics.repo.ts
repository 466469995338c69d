import { and, desc, eq, gt, gte, lt, type SQL, sql } from 'drizzle-orm';
import { reachable, reachedBy } from '../../db/access.js';
import type { Db } from '../../db/client.js';
import { jsonArrayText } from '../../db/rows.js';
import { users, vehicleMonthCosts, vehicles } from '../../db/schema.js';
import { type NamedStatement, namedStatement } from '../../db/statement.js';

/** Sums of one vehicle-month (money columns are numeric(14,2)). */
export type MonthRow = {
  month: string;
  liters: number;
  fuel: number;
  expenses: number;
  insurance: number;
  revisions: number;
};

/** Odometer bounds; numerics may arrive as strings. */
type SpanRow = { low: string | number | null; high: string | number | null };

/**
 * Cost analytics from the monthly rollup the database keeps (vehicle_month_costs). A policy's price
 * counts in the month its startDate falls in; fuel, expenses and revisions in the month of their date;
 * a renewal's price is an expense of the month of its validFrom (of the day it was entered without one).
 * Only months with some cost count. Every read is a named statement: PostgreSQL parses and plans it
 * once per connection (the planning was a quarter of these calls' database time).
 */
export class AnalyticsRepo {
  constructor(private readonly db: Db) {}

  /** One vehicle's months, newest first; with userId, none unless that user reaches it (owner or share). */
  vehicleMonths(vehicleId: number, userId?: number): Promise<MonthRow[]> {
    const q = this.statements();
    return userId === undefined
      ? q.vehicleMonths.execute({ vehicleId })
      : q.reachedVehicleMonths.execute({ vehicleId, userId });
  }

  /**
   * The months of the vehicles a user reaches (`userId`: owned and shared with them; with `own`,
   * only owned), or every owner's between two days (`from` inclusive, `until`
   * exclusive), as the API's AnalyticsRow array, newest first then by vehicle, written by the
   * database: the server passes the text on without parsing, mapping or serialising the rows.
   */
  async rowsJson(
    scope: { userId: number; own?: boolean } | { from?: string; until?: string },
  ): Promise<string> {
    const q = this.statements();
    const [row] =
      'userId' in scope
        ? await q.userRowsJson.execute({ userId: scope.userId, own: scope.own ?? false })
        : await q.rangeRowsJson.execute({
            from: scope.from ?? '-infinity',
            until: scope.until ?? 'infinity',
          });
    return row?.json ?? '[]';
  }

  private prepared: ReturnType<AnalyticsRepo['prepare']> | undefined;
  private statements() {
    this.prepared ??= this.prepare();
    return this.prepared;
  }

  private prepare() {
    const c = vehicleMonthCosts;
    const hasCost = gt(sql`${c.liters} + ${c.fuel} + ${c.expenses} + ${c.insurance} + ${c.revisions}`, 0);
    const vehicleId = eq(c.vehicleId, sql.placeholder('vehicleId'));
    // The access rule (vehicle_access): the vehicles the user in `userId` reaches.
    const reached = reachedBy(c.vehicleId);
    const months = (...where: SQL[]) =>
      this.db
        .select({
          month: c.month,
          liters: c.liters,
          fuel: c.fuel,
          expenses: c.expenses,
          insurance: c.insurance,
          revisions: c.revisions,
        })
        .from(c)
        .innerJoin(vehicles, eq(vehicles.id, c.vehicleId))
        .where(and(hasCost, ...where))
        .orderBy(desc(c.month));
    // Keys in the order of the AnalyticsRow schema.
    const rowsJson = (...where: SQL[]) => {
      const r = this.db
        .select({
          vehicleId: sql`${c.vehicleId}`.as('vehicleId'),
          vehicleMake: sql`${vehicles.make}`.as('vehicleMake'),
          vehicleModel: sql`${vehicles.model}`.as('vehicleModel'),
          ownerUsername: sql`${users.username}`.as('ownerUsername'),
          monthDate: sql`${c.month}`.as('monthDate'),
          totalCost: sql`${c.fuel} + ${c.expenses} + ${c.insurance} + ${c.revisions}`.as('totalCost'),
          totalFuelCost: sql`${c.fuel}`.as('totalFuelCost'),
          totalExpensesCost: sql`${c.expenses}`.as('totalExpensesCost'),
          totalInsuranceCost: sql`${c.insurance}`.as('totalInsuranceCost'),
          totalRevisionCost: sql`${c.revisions}`.as('totalRevisionCost'),
        })
        .from(c)
        .innerJoin(vehicles, eq(vehicles.id, c.vehicleId))
        .innerJoin(users, eq(users.id, vehicles.ownerId))
        .where(and(hasCost, ...where))
        .orderBy(desc(c.month), c.vehicleId)
        .as('r');
      return this.db.select({ json: jsonArrayText() }).from(r);
    };
    return {
      vehicleMonths: months(vehicleId).prepare('analytics_vehicle_months'),
      reachedVehicleMonths: months(vehicleId, reachable(c.vehicleId)).prepare(
        'analytics_reached_vehicle_months',
      ),
      userRowsJson: rowsJson(reached).prepare('analytics_user_rows_json'),
      rangeRowsJson: rowsJson(
        gte(c.month, sql.placeholder('from')),
        lt(c.month, sql.placeholder('until')),
      ).prepare('analytics_range_rows_json'),
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
  private span?: NamedStatement<SpanRow>;
}
