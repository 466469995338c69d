import { and, desc, eq, gt, gte, lt, type SQL, sql } from 'drizzle-orm';
import { reachable, reachedBy } from '../../db/access.js';
import type { Db } from '../../db/client.js';
import { jsonArrayText } from '../../db/rows.js';
import { users, vehicleMonthCosts, vehicles } from '../../db/schema.js';
import { type NamedStatement, namedStatement } from '../../db/statement.js';

/**
 * Cost analytics from the monthly rollup the database keeps (vehicle_month_costs). A policy's price
 * counts in the month its startDate falls in; fuel, expenses and revisions in the month of their date;
 * a renewal's price is an expense of the month of its validFrom (of the day it was entered without one).
 * Only months with some cost count. Every read is a named statement: PostgreSQL parses and plans it
 * once per connection (the planning was a quarter of these calls' database time).
 */
export class AnalyticsRepo {
  constructor(private readonly db: Db) {}

  /**
   * One vehicle's costs as the API answers them, written by the database: `monthly` (MonthlyAnalytics[],
   * newest first), `yearly` (YearlyAnalytics, oldest first) or `total` (AllTimeTotals). With `userId`,
   * undefined unless that user reaches the vehicle (owner or share; null: anyone, for admins); for a
   * vehicle without costs, '[]', '{}' or zero totals. Sums are exact (numeric) and rounded as the schema
   * says (cost per km to 3 decimals); the server passes the text on.
   */
  async vehicleJson(
    kind: 'monthly' | 'yearly' | 'total',
    vehicleId: number,
    userId: number | null,
  ): Promise<string | undefined> {
    this.costs ??= this.prepareCosts();
    const [row] = await this.costs[kind]({ vehicleId, userId });
    return row?.json ?? undefined;
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
        ? await q.userRowsJson({ userId: scope.userId, own: scope.own ?? false })
        : await q.rangeRowsJson({
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
    // The access rule (vehicle_access): the vehicles the user in `userId` reaches.
    const reached = reachedBy(c.vehicleId);
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
      return this.db.select({ json: jsonArrayText().as('json') }).from(r);
    };
    return {
      userRowsJson: namedStatement<{ json: string }>(this.db, 'analytics_user_rows_json', rowsJson(reached)),
      rangeRowsJson: namedStatement<{ json: string }>(
        this.db,
        'analytics_range_rows_json',
        rowsJson(gte(c.month, sql.placeholder('from')), lt(c.month, sql.placeholder('until'))),
      ),
    };
  }

  private costs?: Record<'monthly' | 'yearly' | 'total', NamedStatement<{ json: string | null }>>;
  private prepareCosts() {
    // The vehicle's months with any cost, each with its total.
    const months = sql`
      select c.*, c.fuel + c.expenses + c.insurance + c.revisions as total
      from vehicle_month_costs c
      where c.vehicle_id = ${sql.placeholder('vehicleId')}
        and c.liters + c.fuel + c.expenses + c.insurance + c.revisions > 0`;
    // No row at all (not an empty answer) unless the user in `userId` reaches the vehicle.
    const ifReached = sql`having ${reachable(sql.placeholder('vehicleId'))}`;
    // json_build_object takes CostTotals' keys from sums named l, f, e, i, r and t.
    const costTotals = sql`'totalFuelLiters', l, 'totalFuelCost', f, 'totalExpensesCost', e,
      'totalInsuranceCost', i, 'totalRevisionCost', r, 'totalCost', t`;
    const sums = sql`coalesce(sum(liters), 0) as l, coalesce(sum(fuel), 0) as f,
      coalesce(sum(expenses), 0) as e, coalesce(sum(insurance), 0) as i,
      coalesce(sum(revisions), 0) as r, coalesce(sum(total), 0) as t`;
    return {
      // Aggregated in the subquery's order (see jsonArrayText).
      monthly: namedStatement<{ json: string }>(
        this.db,
        'analytics_vehicle_monthly_json',
        sql`select coalesce(json_agg(r), '[]')::text as json from (
          select (extract(year from m.month) * 100 + extract(month from m.month))::int as id,
                 m.month as "monthDate", m.liters as "totalFuelLiters", m.fuel as "totalFuelCost",
                 m.expenses as "totalExpensesCost", m.insurance as "totalInsuranceCost",
                 m.revisions as "totalRevisionCost", m.total as "totalCost"
          from (${months}) m order by m.month desc) r
          ${ifReached}`,
      ),
      yearly: namedStatement<{ json: string }>(
        this.db,
        'analytics_vehicle_yearly_json',
        sql`select coalesce(json_object_agg(y.year, json_build_object(${costTotals})), '{}')::text as json
          from (select to_char(m.month, 'YYYY') as year, ${sums} from (${months}) m group by 1 order by 1) y
          ${ifReached}`,
      ),
      // km driven: between the lowest and highest reading (fuel entries, services, the vehicle itself).
      total: namedStatement<{ json: string }>(
        this.db,
        'analytics_vehicle_total_json',
        sql`with readings as (
            select odometer as km from fuel_entries
              where vehicle_id = ${sql.placeholder('vehicleId')} and odometer is not null
            union all select km from revisions where vehicle_id = ${sql.placeholder('vehicleId')}
          ), span as (
            select coalesce(greatest(max(km), v.odometer) - min(km), 0)::int as km
            from readings, vehicles v where v.id = ${sql.placeholder('vehicleId')} group by v.odometer
          ), sums as (select ${sums} from (${months}) m)
          select json_build_object(${costTotals}, 'totalKm', coalesce(span.km, 0),
                   'costPerKm', case when span.km > 0 then round(t / span.km, 3) end)::text as json
          from vehicles v cross join sums left join span on true
          where v.id = ${sql.placeholder('vehicleId')} and ${reachable(sql.placeholder('vehicleId'))}`,
      ),
    };
  }
}
