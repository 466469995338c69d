import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';

/** Sums of one vehicle-month, straight from SQL (numerics arrive as strings). */
export type MonthRow = {
  vehicleId: number;
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
 * Cost aggregation in SQL over the four record tables. A policy's price counts in the month its
 * startDate falls in; fuel, expenses and revisions in the month of their date.
 */
export class AnalyticsRepo {
  constructor(private readonly db: Db) {}

  async monthly(scope: Scope): Promise<MonthRow[]> {
    const vehicles = vehicleFilter(scope);
    const range = (col: SQL) =>
      sql`${scope.from ? sql`and ${col} >= ${scope.from}::date` : sql``} ${scope.until ? sql`and ${col} < ${scope.until}::date` : sql``}`;
    const result = await this.db.execute(sql`
      with v as (select id from vehicles where ${vehicles}),
      x as (
        select vehicle_id, date_trunc('month', date)::date as m, liters as l, fuel_price as f, 0::numeric as e, 0::numeric as i, 0::numeric as r
          from fuel_entries where vehicle_id in (select id from v) ${range(sql`date`)}
        union all select vehicle_id, date_trunc('month', date)::date, 0, 0, amount, 0, 0
          from expenses where vehicle_id in (select id from v) ${range(sql`date`)}
        union all select vehicle_id, date_trunc('month', start_date)::date, 0, 0, 0, price, 0
          from insurances where vehicle_id in (select id from v) ${range(sql`start_date`)}
        union all select vehicle_id, date_trunc('month', date)::date, 0, 0, 0, 0, price
          from revisions where vehicle_id in (select id from v) ${range(sql`date`)}
      )
      select vehicle_id as "vehicleId", to_char(m, 'YYYY-MM-DD') as month,
             sum(l) as liters, sum(f) as fuel, sum(e) as expenses, sum(i) as insurance, sum(r) as revisions
        from x
       group by vehicle_id, m
      having sum(l) > 0 or sum(f) + sum(e) + sum(i) + sum(r) > 0
       order by m desc, vehicle_id`);
    return rowsOf<Record<keyof MonthRow, string | number>>(result).map((r) => ({
      vehicleId: Number(r.vehicleId),
      month: String(r.month),
      liters: Number(r.liters),
      fuel: Number(r.fuel),
      expenses: Number(r.expenses),
      insurance: Number(r.insurance),
      revisions: Number(r.revisions),
    }));
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

  /** Make, model and owner of vehicles, for naming rows. */
  async vehicleNames(
    ids: number[],
  ): Promise<Map<number, { make: string; model: string; ownerUsername: string }>> {
    if (ids.length === 0) return new Map();
    const result = await this.db.execute(sql`
      select v.id, v.make, v.model, u.username as "ownerUsername"
        from vehicles v join users u on u.id = v.owner_id
       where v.id in ${sql.raw(`(${ids.map(Number).join(',')})`)}`);
    return new Map(
      rowsOf<{ id: number; make: string; model: string; ownerUsername: string }>(result).map((r) => [
        Number(r.id),
        r,
      ]),
    );
  }
}

function vehicleFilter(scope: Scope): SQL {
  if (scope.vehicleId !== undefined) return sql`id = ${scope.vehicleId}`;
  if (scope.ownerId !== undefined) return sql`owner_id = ${scope.ownerId}`;
  return sql`true`;
}
