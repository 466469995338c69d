import { REVISION_INTERVAL_KM, REVISION_INTERVAL_MONTHS } from '@evdra/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { type NamedStatement, namedStatement } from '../db/statement.js';
import { round2, typicalConsumption, type VehicleFacts } from './facts.js';

type Num = string | number | null;
const num = (v: Num): number => (v == null ? 0 : Number(v));
const opt = (v: Num): number | null => (v == null ? null : Number(v));
type Dated = { v: Num; d: string } | null;
const dated = (x: Dated) => (x && x.v != null ? { value: round2(Number(x.v)), date: x.d } : null);

/**
 * The facts layer: every figure the AI uses, aggregated by SQL from the records of the given
 * vehicles (the caller has already checked they belong to the user). Six queries for any number
 * of vehicles.
 */
export class FactsRepo {
  constructor(private readonly db: Db) {}

  async forOwner(ownerId: number, today: string): Promise<VehicleFacts[]> {
    return this.load('owner', ownerId, today);
  }

  async forVehicle(vehicleId: number, today: string): Promise<VehicleFacts | undefined> {
    const [facts] = await this.load('vehicle', vehicleId, today);
    return facts;
  }

  private readonly statements = new Map<string, NamedStatement<unknown>>();
  private run<Row>(name: string, query: () => SQL, values: Record<string, unknown>): Promise<Row[]> {
    let statement = this.statements.get(name);
    if (!statement) {
      statement = namedStatement(this.db, name, query());
      this.statements.set(name, statement);
    }
    return statement(values) as Promise<Row[]>;
  }

  /** Keeps an evaluation on the vehicle row (integral 1–10) and bumps its version. */
  async saveScore(vehicleId: number, score: number, reason: string) {
    await this.db.execute(sql`
      update vehicles set ai_score = ${score}, ai_score_reason = ${reason},
             version = version + 1, updated_at = now()
       where id = ${vehicleId}`);
  }

  /**
   * Each statement is named, so PostgreSQL plans it once per connection (planning these window and
   * aggregate queries cost more than running them on one car); the five per-record statements take
   * the vehicle ids as one array and run side by side.
   */
  private async load(scope: 'vehicle' | 'owner', key: number, today: string): Promise<VehicleFacts[]> {
    const t = sql`${sql.placeholder('today')}::date`;
    const ids = sql`any(${sql.placeholder('ids')}::int[])`;
    const vs = await this.run<{
      id: number;
      make: string;
      model: string;
      year: number;
      fuelType: VehicleFacts['vehicle']['fuelType'];
      engineSize: Num;
      odometer: number;
      registrationNumber: string;
      consent: boolean;
      fuelN: Num;
      expensesN: Num;
      insurancesN: Num;
      revisionsN: Num;
      kmLow: Num;
      kmHigh: Num;
      largest: { type: string; amount: Num; date: string } | null;
    }>(
      `facts_vehicles_by_${scope}`,
      () => sql`
        select v.id, v.make, v.model, v.year, v.fuel_type as "fuelType", v.engine_size as "engineSize",
               v.odometer, v.registration_number as "registrationNumber", v.ai_evaluation_consent as consent,
               (select count(*) from fuel_entries f where f.vehicle_id = v.id) as "fuelN",
               (select count(*) from expenses e where e.vehicle_id = v.id) as "expensesN",
               (select count(*) from insurances i where i.vehicle_id = v.id) as "insurancesN",
               (select count(*) from revisions r where r.vehicle_id = v.id) as "revisionsN",
               (select min(km) from (select odometer as km from fuel_entries where vehicle_id = v.id and odometer is not null
                                     union all select km from revisions where vehicle_id = v.id) k) as "kmLow",
               greatest(v.odometer, (select max(km) from (select odometer as km from fuel_entries where vehicle_id = v.id and odometer is not null
                                     union all select km from revisions where vehicle_id = v.id) k)) as "kmHigh",
               (select json_build_object('type', e.expense_type, 'amount', e.amount, 'date', to_char(e.date, 'YYYY-MM-DD'))
                  from expenses e where e.vehicle_id = v.id order by e.amount desc, e.date desc limit 1) as largest
          from vehicles v where ${scope === 'vehicle' ? sql`v.id` : sql`v.owner_id`} = ${sql.placeholder('key')}
         order by v.id`,
      { key },
    );
    if (vs.length === 0) return [];
    const values = { ids: vs.map((v) => v.id), today };
    const [monthRows, costRows, fuelRows, serviceRows, insuranceRows] = await Promise.all([
      this.run<{ vehicleId: number; month: string; fuel: Num; liters: Num; total: Num }>(
        'facts_months',
        () => sql`
        select vehicle_id as "vehicleId", to_char(month, 'YYYY-MM') as month, fuel, liters,
               fuel + expenses + insurance + revisions as total
          from vehicle_month_costs
         where vehicle_id = ${ids} and fuel + expenses + insurance + revisions + liters > 0
         order by vehicle_id, month`,
        values,
      ),

      this.run<{
        vehicleId: number;
        fuel: Num;
        expenses: Num;
        insurance: Num;
        revisions: Num;
        last3: Num;
        prev12: Num;
        prev12Months: Num;
        bestMonth: string | null;
        bestMonthAmount: Num;
      }>(
        'facts_costs',
        () => sql`
        with c as (
          select vehicle_id, month, fuel, expenses, insurance, revisions,
                 fuel + expenses + insurance + revisions as total
            from vehicle_month_costs where vehicle_id = ${ids})
        select vehicle_id as "vehicleId", sum(fuel) as fuel, sum(expenses) as expenses,
               sum(insurance) as insurance, sum(revisions) as revisions,
               coalesce(sum(total) filter (where month >= date_trunc('month', ${t}) - interval '2 months'
                                             and month <= date_trunc('month', ${t})), 0) as last3,
               coalesce(sum(total) filter (where month < date_trunc('month', ${t}) - interval '2 months'
                                             and month >= date_trunc('month', ${t}) - interval '14 months'), 0) as prev12,
               count(*) filter (where total > 0 and month < date_trunc('month', ${t}) - interval '2 months'
                                  and month >= date_trunc('month', ${t}) - interval '14 months') as "prev12Months",
               (select to_char(c2.month, 'YYYY-MM') from c c2 where c2.vehicle_id = c.vehicle_id and c2.total > 0
                 order by c2.total desc, c2.month desc limit 1) as "bestMonth",
               (select max(c2.total) from c c2 where c2.vehicle_id = c.vehicle_id) as "bestMonthAmount"
          from c group by vehicle_id`,
        values,
      ),

      this.run<{
        vehicleId: number;
        quantity: Num;
        spent: Num;
        measured: Num;
        avg: Num;
        latest: Dated;
        best: Dated;
        worst: Dated;
        recentPrice: Num;
        earlierPrice: Num;
      }>(
        'facts_fuel',
        () => sql`
        with f as (
          select vehicle_id, id, date, liters, fuel_price, consumption_per_100km as c,
                 coalesce(price_per_liter, fuel_price / nullif(liters, 0)) as ppu,
                 row_number() over (partition by vehicle_id order by date desc, id desc) as rn
            from fuel_entries where vehicle_id = ${ids})
        select vehicle_id as "vehicleId", sum(liters) as quantity, sum(fuel_price) as spent,
               count(c) as measured, avg(c) as avg,
               (select json_build_object('v', f2.c, 'd', to_char(f2.date, 'YYYY-MM-DD')) from f f2
                 where f2.vehicle_id = f.vehicle_id and f2.c is not null order by f2.date desc, f2.id desc limit 1) as latest,
               (select json_build_object('v', f2.c, 'd', to_char(f2.date, 'YYYY-MM-DD')) from f f2
                 where f2.vehicle_id = f.vehicle_id and f2.c is not null order by f2.c asc, f2.date desc limit 1) as best,
               (select json_build_object('v', f2.c, 'd', to_char(f2.date, 'YYYY-MM-DD')) from f f2
                 where f2.vehicle_id = f.vehicle_id and f2.c is not null order by f2.c desc, f2.date desc limit 1) as worst,
               avg(ppu) filter (where rn <= 3) as "recentPrice",
               avg(ppu) filter (where rn > 3) as "earlierPrice"
          from f group by vehicle_id`,
        values,
      ),

      this.run<{
        vehicleId: number;
        lastDate: string | null;
        lastKm: Num;
        avgKm: Num;
        avgDays: Num;
        nextDate: string | null;
        daysLeft: Num;
      }>(
        'facts_services',
        () => sql`
        with r as (
          select vehicle_id, id, date, km, manual_reminder_date,
                 km - lag(km) over (partition by vehicle_id order by date, id) as dkm,
                 date - lag(date) over (partition by vehicle_id order by date, id) as ddays,
                 row_number() over (partition by vehicle_id order by date desc, id desc) as rn
            from revisions where vehicle_id = ${ids})
        select vehicle_id as "vehicleId",
               max(to_char(date, 'YYYY-MM-DD')) filter (where rn = 1) as "lastDate",
               max(km) filter (where rn = 1) as "lastKm",
               avg(dkm) as "avgKm", avg(ddays) as "avgDays",
               max(to_char(coalesce(manual_reminder_date, (date + ${`${REVISION_INTERVAL_MONTHS} months`}::interval)::date), 'YYYY-MM-DD')) filter (where rn = 1) as "nextDate",
               max(coalesce(manual_reminder_date, (date + ${`${REVISION_INTERVAL_MONTHS} months`}::interval)::date) - ${t}) filter (where rn = 1) as "daysLeft"
          from r group by vehicle_id`,
        values,
      ),

      this.run<{
        vehicleId: number;
        gaps: Num;
        current: { p: string; e: string; d: Num } | null;
        latest: { p: string; e: string; d: Num } | null;
      }>(
        'facts_insurance',
        () => sql`
        with i as (
          select vehicle_id, provider, start_date, end_date,
                 lag(end_date) over (partition by vehicle_id order by start_date, id) as prev_end
            from insurances where vehicle_id = ${ids})
        select vehicle_id as "vehicleId",
               count(*) filter (where prev_end is not null and start_date > prev_end + 1) as gaps,
               (select json_build_object('p', i2.provider, 'e', to_char(i2.end_date, 'YYYY-MM-DD'), 'd', i2.end_date - ${t})
                  from i i2 where i2.vehicle_id = i.vehicle_id and ${t} between i2.start_date and i2.end_date
                 order by i2.end_date desc limit 1) as current,
               (select json_build_object('p', i2.provider, 'e', to_char(i2.end_date, 'YYYY-MM-DD'), 'd', i2.end_date - ${t})
                  from i i2 where i2.vehicle_id = i.vehicle_id order by i2.end_date desc limit 1) as latest
          from i group by vehicle_id`,
        values,
      ),
    ]);

    const byId = <T extends { vehicleId: number }>(rows: T[]) =>
      new Map(rows.map((r) => [Number(r.vehicleId), r]));
    const costs = byId(costRows);
    const fuels = byId(fuelRows);
    const services = byId(serviceRows);
    const insurances = byId(insuranceRows);
    const year = Number(today.slice(0, 4));

    return vs.map((v): VehicleFacts => {
      const engineSize = num(v.engineSize);
      const c = costs.get(v.id);
      const f = fuels.get(v.id);
      const s = services.get(v.id);
      const ins = insurances.get(v.id);
      const cats = {
        fuel: round2(num(c?.fuel ?? null)),
        expenses: round2(num(c?.expenses ?? null)),
        insurance: round2(num(c?.insurance ?? null)),
        revisions: round2(num(c?.revisions ?? null)),
      };
      const total = round2(cats.fuel + cats.expenses + cats.insurance + cats.revisions);
      const km = Math.max(0, num(v.kmHigh) - (v.kmLow == null ? num(v.kmHigh) : num(v.kmLow)));
      const biggest = (Object.entries(cats) as [keyof typeof cats, number][]).sort((a, b) => b[1] - a[1])[0];
      const ageYears = Math.max(0, year - v.year);
      const records = {
        fuel: num(v.fuelN),
        expenses: num(v.expensesN),
        insurances: num(v.insurancesN),
        revisions: num(v.revisionsN),
        total: 0,
      };
      records.total = records.fuel + records.expenses + records.insurances + records.revisions;
      const ins2 = (x: { p: string; e: string; d: Num } | null | undefined) =>
        x ? { provider: x.p, endDate: x.e, daysLeft: num(x.d) } : null;
      const lastKm = s?.lastDate ? num(s.lastKm) : null;
      return {
        vehicle: {
          id: v.id,
          make: v.make,
          model: v.model,
          year: v.year,
          fuelType: v.fuelType,
          engineSize,
          odometer: v.odometer,
          registrationNumber: v.registrationNumber,
          aiEvaluationConsent: v.consent,
        },
        today,
        ageYears,
        kmPerYear: Math.round(v.odometer / Math.max(1, ageYears)),
        records,
        costs: {
          ...cats,
          total,
          km,
          costPerKm: km > 0 && total > 0 ? Math.round((total / km) * 1000) / 1000 : null,
          biggestCategory: biggest && biggest[1] > 0 ? { category: biggest[0], amount: biggest[1] } : null,
          biggestMonth: c?.bestMonth ? { month: c.bestMonth, amount: round2(num(c.bestMonthAmount)) } : null,
          last3MonthlyAvg: round2(num(c?.last3 ?? null) / 3),
          prev12MonthlyAvg: round2(num(c?.prev12 ?? null) / 12),
          prev12Months: num(c?.prev12Months ?? null),
          largestExpense: v.largest
            ? { type: v.largest.type, amount: round2(num(v.largest.amount)), date: v.largest.date }
            : null,
          months: monthRows
            .filter((m) => Number(m.vehicleId) === v.id)
            .map((m) => ({
              month: m.month,
              fuel: round2(num(m.fuel)),
              liters: round2(num(m.liters)),
              total: round2(num(m.total)),
            })),
        },
        fuel: {
          fills: records.fuel,
          quantity: round2(num(f?.quantity ?? null)),
          spent: round2(num(f?.spent ?? null)),
          measured: num(f?.measured ?? null),
          avgConsumption: f?.avg == null ? null : round2(Number(f.avg)),
          latest: dated(f?.latest ?? null),
          best: dated(f?.best ?? null),
          worst: dated(f?.worst ?? null),
          recentPricePerUnit: f?.recentPrice == null ? null : Math.round(Number(f.recentPrice) * 1000) / 1000,
          earlierPricePerUnit:
            f?.earlierPrice == null ? null : Math.round(Number(f.earlierPrice) * 1000) / 1000,
          typicalConsumption: typicalConsumption(v.fuelType, engineSize),
        },
        service: {
          count: records.revisions,
          last: s?.lastDate && lastKm !== null ? { date: s.lastDate, km: lastKm } : null,
          avgIntervalKm: opt(s?.avgKm ?? null) === null ? null : Math.round(Number(s?.avgKm)),
          avgIntervalDays: opt(s?.avgDays ?? null) === null ? null : Math.round(Number(s?.avgDays)),
          next:
            s?.nextDate && lastKm !== null
              ? {
                  date: s.nextDate,
                  km: lastKm + REVISION_INTERVAL_KM,
                  daysLeft: num(s.daysLeft),
                  kmLeft: lastKm + REVISION_INTERVAL_KM - v.odometer,
                }
              : null,
        },
        insurance: {
          count: records.insurances,
          current: ins2(ins?.current),
          latest: ins2(ins?.latest),
          gaps: num(ins?.gaps ?? null),
        },
      };
    });
  }
}
