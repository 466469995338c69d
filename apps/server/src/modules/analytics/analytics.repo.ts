import { type CurrencyCode, type FillUp, FUEL_UNITS, type FuelType } from '@evdra/domain';
import { type AnyColumn, and, eq, type SQL, sql } from 'drizzle-orm';
import { reachable, reachedIds } from '../../db/access.js';
import type { Db } from '../../db/client.js';
import { versionsDigest } from '../../db/digest.js';
import { jsonArrayText } from '../../db/rows.js';
import { fuelEntries, users, vehicleMonthCosts, vehicles } from '../../db/schema.js';
import { type NamedStatement, namedStatement } from '../../db/statement.js';
import type { AnswerMoney } from '../../lib/answer-money.js';

export type { AnswerMoney };

/** The statements' currency and rates parameters; kept per money (the service reuses its objects). */
const paramsOf = new WeakMap<AnswerMoney, { currency: CurrencyCode; rates: string }>();
/** A page of car-months: its size, and the last car-month of the page before (none: from the newest). */
export type CarMonthsPage = { limit: number; after?: { month: string; vehicleId: number } };
const pageParams = (page: CarMonthsPage) => ({
  limit: page.limit,
  afterMonth: page.after?.month ?? 'infinity',
  afterVehicle: page.after?.vehicleId ?? 0,
});

const moneyParams = (money: AnswerMoney) => {
  let params = paramsOf.get(money);
  if (!params) {
    params = { currency: money.currency, rates: JSON.stringify(Object.fromEntries(money.rates)) };
    paramsOf.set(money, params);
  }
  return params;
};

/**
 * Cost analytics from the monthly rollup the database keeps (vehicle_month_costs). A policy's price
 * counts in the month its startDate falls in; fuel, expenses and revisions in the month of their date;
 * a renewal's price is an expense of the month of its validFrom (of the day it was entered without one).
 * Only months with some cost count. Every read is a named statement: PostgreSQL parses and plans it
 * once per connection (the planning was a quarter of these calls' database time).
 */
/** A vehicle's fuels and fills, as the split by fuel reads them (fuelFills). */
export type FuelFills = {
  fuelType: FuelType;
  secondaryFuelType: FuelType | null;
  fills: (FillUp & { cost: number; currency: CurrencyCode })[];
};
/** How many vehicles' fills fuelFills keeps. */
const FILLS_KEPT = 500;

/** What one vehicle's answers to one reader depend on besides its monthly rollup (vehicleContext). */
export type VehicleContext = {
  key: string;
  currencies: { owner: CurrencyCode; reader: CurrencyCode; present: CurrencyCode[] };
  fuels: FuelFills;
};

// The parts of a vehicle's context, for the vehicle `v` and the reader in `readerId`.
const readerCurrency = sql`(select r.currency from users r where r.id = ${sql.placeholder('readerId')})`;
const presentCurrencies = sql`(select string_agg(distinct c.currency, ',' order by c.currency)
  from vehicle_month_costs c where c.vehicle_id = v.id)`;
/**
 * The vehicle's records version (vehicle_record_versions: a fresh value whenever one of its fuel,
 * expense, insurance, service or renewal records is written or deleted): its fills and the
 * currencies of its monthly sums are the same while it is. 0: never written since migration 0020.
 */
const recordsVersion = sql`coalesce((select rv.version from vehicle_record_versions rv where rv.vehicle_id = v.id), 0)`;
/**
 * The context as one text, compared by the answering statements (empty parts kept, so none shifts):
 * three lookups by primary key, where the parts themselves take two aggregates.
 */
const contextKey = sql`concat_ws('|', (select o.currency from users o where o.id = v.owner_id),
  coalesce(${readerCurrency}, ''), ${recordsVersion}, v.fuel_type, coalesce(v.secondary_fuel_type, ''))`;

/**
 * What an answer, once written, stays true for: the context, and the vehicle's own row (its version,
 * and its odometer, which /total's km count and the demo seed sets alone).
 */
const answerStamp = sql`concat_ws('|', ${contextKey}, v.version, v.odometer)`;

/** analytics_vehicle_context's row (vehicleContext). */
type ContextRow = {
  owner: CurrencyCode;
  reader: CurrencyCode | null;
  present: string | null;
  fuelType: FuelType;
  secondaryFuelType: FuelType | null;
  stamp: string;
  key: string;
};

export class AnalyticsRepo {
  private context?: NamedStatement<ContextRow>;
  private stamp?: NamedStatement<{ stamp: string }>;
  private readonly fillsKept = new Map<number, { stamp: string; data: FuelFills }>();

  constructor(private readonly db: Db) {}

  /**
   * One vehicle's costs as the API answers them, written by the database: `monthly` (MonthlyAnalytics[],
   * newest first), `yearly` (YearlyAnalytics, oldest first) or `total` (AllTimeTotals). With `userId`,
   * undefined unless that user reaches the vehicle (owner or share; null: anyone, for admins); for a
   * vehicle without costs, '[]', '{}' or zero totals. Sums are exact (numeric) and rounded as the schema
   * says (cost per km to 3 decimals); the server passes the text on. Null when the vehicle's context
   * (see vehicleContext) is no longer `seen.key`: `money` and `byFuel` were worked out from an older one.
   */
  async vehicleJson(
    kind: 'monthly' | 'yearly' | 'total',
    vehicleId: number,
    userId: number | null,
    money: AnswerMoney,
    /**
     * /total: the FuelSplit array; /yearly: by year, and '*' for a year without fills; monthly: by
     * month ('YYYY-MM'), and '*' for a month without fills (JSON). Monthly without it: byFuel [].
     */
    byFuel: string,
    seen: { readerId: number; key: string },
  ): Promise<{ json: string | null; stamp: string } | undefined> {
    this.costs ??= this.prepareCosts();
    const [row] = await this.costs[kind]({
      vehicleId,
      userId,
      ...moneyParams(money),
      byFuel,
      ...seen,
    });
    return row;
  }

  /**
   * The stamp an answer of vehicleJson came with, as it is now: while it is the same, so is that
   * answer. Undefined when the user in `userId` does not reach the vehicle (null: anyone) or there is
   * no such vehicle. Three lookups by primary key, where an answer adds up the rollup's rows.
   */
  async answerStamp(vehicleId: number, userId: number | null, readerId: number): Promise<string | undefined> {
    this.stamp ??= namedStatement<{ stamp: string }>(
      this.db,
      'analytics_vehicle_stamp',
      sql`select ${answerStamp} as stamp from vehicles v
        where v.id = ${sql.placeholder('vehicleId')} and ${reachable(sql.placeholder('vehicleId'))}`,
    );
    const [row] = await this.stamp({ vehicleId, userId, readerId });
    return row?.stamp;
  }

  /**
   * What a vehicle's answers depend on besides its monthly rollup, for one reader: its owner's
   * currency, the reader's, the currencies its monthly sums are in (its owner's when each record was
   * written), and its fills (the split by fuel, issue 51), with `key`, the text the answering
   * statement compares (vehicleJson). Undefined: no such vehicle. No access check: the caller answers
   * only once vehicleJson has.
   */
  async vehicleContext(vehicleId: number, readerId: number): Promise<VehicleContext | undefined> {
    this.context ??= namedStatement<ContextRow>(
      this.db,
      'analytics_vehicle_context',
      sql`select u.currency as owner, ${readerCurrency} as reader, ${presentCurrencies} as present,
          v.fuel_type as "fuelType", v.secondary_fuel_type as "secondaryFuelType",
          ${recordsVersion}::text as stamp, ${contextKey} as key
        from vehicles v join users u on u.id = v.owner_id where v.id = ${sql.placeholder('vehicleId')}`,
    );
    const [row] = await this.context({ vehicleId, readerId });
    if (!row) return undefined;
    const present = (row.present ? row.present.split(',') : []) as CurrencyCode[];
    return {
      key: row.key,
      currencies: { owner: row.owner, reader: row.reader ?? row.owner, present },
      fuels: await this.fuelFills(vehicleId, row),
    };
  }

  /**
   * A vehicle's fuels and every fill with its cost in the owner's currency at its stored rate (as
   * the monthly rollup counts it) and that currency (rate_currency): the split by fuel (issue 51).
   */
  private async fuelFills(
    vehicleId: number,
    vehicle: { fuelType: FuelType; secondaryFuelType: FuelType | null; stamp: string },
  ): Promise<FuelFills> {
    // The fills change far less often than they are read: kept per vehicle while the stamp (its
    // fuels and its records version) says they are the same. The stamp is read from the database,
    // so another replica's write is seen as surely as this one's.
    const stamp = `${vehicle.fuelType}:${vehicle.secondaryFuelType}:${vehicle.stamp}`;
    const kept = this.fillsKept.get(vehicleId);
    if (kept?.stamp === stamp) return kept.data;
    const data = await this.loadFuelFills(vehicleId, vehicle);
    this.fillsKept.delete(vehicleId);
    this.fillsKept.set(vehicleId, { stamp, data });
    // The longest kept goes first (a Map keeps insertion order).
    if (this.fillsKept.size > FILLS_KEPT) this.fillsKept.delete(this.fillsKept.keys().next().value as number);
    return data;
  }

  private async loadFuelFills(
    vehicleId: number,
    vehicle: { fuelType: FuelType; secondaryFuelType: FuelType | null },
  ): Promise<FuelFills> {
    const f = fuelEntries;
    const rows = await this.db
      .select({
        id: f.id,
        date: f.date,
        odometer: f.odometer,
        liters: f.liters,
        fullTank: f.fullTank,
        missedPrevious: f.missedPrevious,
        fuelType: f.fuelType,
        distanceOnThisFuel: f.distanceOnThisFuel,
        cost: sql<string>`evdra_owner_amount(${f.fuelPrice}, ${f.exchangeRate})::text`,
        currency: f.rateCurrency,
      })
      .from(f)
      .where(eq(f.vehicleId, vehicleId));
    return {
      fuelType: vehicle.fuelType,
      secondaryFuelType: vehicle.secondaryFuelType,
      fills: rows.map((r) => ({ ...r, liters: Number(r.liters), cost: Number(r.cost) })),
    };
  }

  /**
   * A page of the months of the vehicles a user reaches (`userId`: owned and shared with them; with
   * `own`, only owned), as the API's AnalyticsRow array written by the database (the server passes
   * the text on without parsing, mapping or serialising the rows), newest month first then by
   * vehicle: the `limit` car-months after `after`, and `next`, the cursor of the page after, when
   * car-months follow.
   */
  async userPageJson(
    scope: { userId: number; own?: boolean },
    page: CarMonthsPage,
    money: AnswerMoney,
  ): Promise<{ json: string; next: string | null }> {
    const [row] = await this.statements().userPageJson({
      userId: scope.userId,
      own: scope.own ?? false,
      ...pageParams(page),
      ...moneyParams(money),
    });
    return { json: row?.json ?? '[]', next: row?.next ?? null };
  }

  /**
   * Every owner's car-months between two days (`from` inclusive, `until` exclusive), as userPageJson
   * writes them (each page read through the (month desc, vehicle) index, however many cars there are).
   */
  async rangePageJson(
    page: CarMonthsPage & { from?: string; until?: string },
    money: AnswerMoney,
  ): Promise<{ json: string; next: string | null }> {
    const [row] = await this.statements().rangePageJson({
      from: page.from ?? '-infinity',
      until: page.until ?? 'infinity',
      ...pageParams(page),
      ...moneyParams(money),
    });
    return { json: row?.json ?? '[]', next: row?.next ?? null };
  }

  private userStampStatement?: NamedStatement<{ currency: CurrencyCode; stamp: string }>;
  /**
   * The user's currency, and the stamp rowsJson's answer for them (`own`: their own vehicles only)
   * stays true for: each vehicle they reach with its version, its records' version and its owner's
   * name and currency. Undefined: no such user.
   */
  async userStamp(
    userId: number,
    own: boolean,
  ): Promise<{ currency: CurrencyCode; stamp: string } | undefined> {
    this.userStampStatement ??= namedStatement<{ currency: CurrencyCode; stamp: string }>(
      this.db,
      'analytics_user_stamp',
      // vehicle_access's two branches spelled out: the owner's own cars read once from their
      // (owner_id, id) index, with the owner's name and currency said once, not joined again for
      // each car (a 200-car fleet: 2,412 → 815 buffers, 1.06 → 0.59 ms, issue 54); their records
      // versions from the versions' owner index, not car by car (807 → 48 buffers, migration 0044);
      // both as digests, not lists (versionsDigest); shared cars as before.
      sql`select r.currency, concat_ws('|', r.username, r.currency,
          (select ${versionsDigest(sql`v.id`, sql`v.version`)} from vehicles v where v.owner_id = r.id),
          (select ${versionsDigest(sql`rv.vehicle_id`, sql`rv.version`)}
            from vehicle_record_versions rv where rv.owner_id = r.id),
          coalesce((select string_agg(concat_ws(':', v.id, v.version, coalesce(rv.version, 0), o.username, o.currency), ',' order by v.id)
            from vehicle_shares s join vehicles v on v.id = s.vehicle_id join users o on o.id = v.owner_id
            left join vehicle_record_versions rv on rv.vehicle_id = v.id
            where s.user_id = r.id and ${sql.placeholder('own')}::boolean is not true), '')) as stamp
        from users r where r.id = ${sql.placeholder('userId')}`,
    );
    const [row] = await this.userStampStatement({ userId, own });
    return row;
  }

  private generationStatement?: NamedStatement<{ stamp: string }>;
  /**
   * What every per-car row (rowsJson over a range) is true for: each bucket's number in
   * analytics_generation (migration 0038), which any write those rows show changes.
   */
  async generation(): Promise<string> {
    this.generationStatement ??= namedStatement<{ stamp: string }>(
      this.db,
      'analytics_generation_stamp',
      sql`select coalesce(string_agg(bucket || ':' || gen, ',' order by bucket), '') as stamp from analytics_generation`,
    );
    const [row] = await this.generationStatement({});
    return row?.stamp ?? '';
  }

  private globalMonths?: NamedStatement<{ json: string }>;
  /**
   * Every vehicle's costs by month between two days (`from` inclusive, `until` exclusive), newest
   * first, as the API's GlobalMonth array written by the database, from the rollup kept across all
   * cars (global_month_costs, migration 0036): a dozen rows a month, however many cars there are.
   * Each month's sum in each currency at the answer's rate to the cent, then added; a sum in a
   * currency without a known rate stays in its own, in a row of its own.
   */
  async globalMonthsJson(range: { from?: string; until?: string }, money: AnswerMoney): Promise<string> {
    const rate = sql`(${sql.placeholder('rates')}::jsonb ->> g.cur)::numeric`;
    const converted = (sum: string) => sql`round(${sql.raw(`g.${sum}`)} * coalesce(${rate}, 1), 2)`;
    this.globalMonths ??= namedStatement<{ json: string }>(
      this.db,
      'analytics_global_months_json',
      sql`select ${jsonArrayText()} as json from (
        select m.month as "monthDate", m.l as "totalFuelLiters", m.f as "totalFuelCost", m.e as "totalExpensesCost",
               m.i as "totalInsuranceCost", m.r as "totalRevisionCost", m.f + m.e + m.i + m.r as "totalCost", m.currency
        from (
          select g.month, case when ${rate} is null then g.cur else ${sql.placeholder('currency')}::text end as currency,
                 sum(g.l) as l, sum(${converted('f')}) as f, sum(${converted('e')}) as e,
                 sum(${converted('i')}) as i, sum(${converted('r')}) as r
          from (
            select month, currency as cur, sum(liters) as l, sum(fuel) as f, sum(expenses) as e,
                   sum(insurance) as i, sum(revisions) as r
            from global_month_costs
            where month >= ${sql.placeholder('from')}::date and month < ${sql.placeholder('until')}::date
            group by 1, 2
          ) g
          group by 1, 2
          having sum(g.l + g.f + g.e + g.i + g.r) > 0
        ) m
        order by m.month desc, m.currency) r`,
    );
    const [row] = await this.globalMonths({
      from: range.from ?? '-infinity',
      until: range.until ?? 'infinity',
      ...moneyParams(money),
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
    // Each month's sums in the answer's currency (x): a sum in a currency without a known rate to it
    // stays in its own (and says so), never added to another currency's; then one row per vehicle,
    // month and currency.
    const rate = sql`(${sql.placeholder('rates')}::jsonb ->> ${c.currency})::numeric`;
    const converted = (column: AnyColumn) => sql`round(${column} * coalesce(${rate}, 1), 2)`;
    // The split by fuel (issue 51). A single-fuel vehicle's is its month's rollup (all its fuel is its
    // one fuel) and a count of its fills there, read through the (vehicle, date) index: the fills of
    // the single-fuel fleet are never scanned (an admin's year was a scan of every fill, 6x the
    // statement's time). A two-fuel vehicle's comes from one grouped pass over its own fills in the
    // same months: each fuel's month sum in each currency at the answer's rate to the cent (as the
    // month's fuel cost is), keyed by the row it belongs to (vehicle, month, answered currency). A
    // fill counts as its vehicle's second fuel when it says so, else as the primary (fuelOfFill).
    const f = fuelEntries;
    const fillRate = sql`(${sql.placeholder('rates')}::jsonb ->> g.cur)::numeric`;
    const unitOf = (fuel: string) =>
      sql.raw(
        `case ${fuel} ${Object.entries(FUEL_UNITS)
          .map(([name, u]) => `when '${name}' then '${u}'`)
          .join(' ')} else 'L' end`,
      );
    const byFuel = (...where: SQL[]) => sql`
      select s.vehicle_id, s.month, s.currency,
             json_agg(json_build_object('fuelType', s.fuel_type, 'unit', ${unitOf('s.fuel_type')}, 'quantity', s.quantity,
               'cost', s.cost, 'fills', s.fills) order by s.secondary) as by_fuel
      from (
      select b.vehicle_id, b.month, b.currency, b.fuel_type, b.secondary, round(sum(b.quantity), 2) as quantity,
             sum(b.cost) as cost, sum(b.fills)::int as fills
      from (
        select g.vehicle_id, g.month, g.fuel_type, g.secondary, g.quantity, g.fills,
               case when ${fillRate} is null then g.cur else ${sql.placeholder('currency')}::text end as currency,
               round(g.cost * coalesce(${fillRate}, 1), 2) as cost
        from (
          select ${f.vehicleId} as vehicle_id, date_trunc('month', ${f.date})::date as month,
                 coalesce(v.secondary_fuel_type = ${f.fuelType}, false) as secondary,
                 case when v.secondary_fuel_type = ${f.fuelType} then v.secondary_fuel_type else v.fuel_type end as fuel_type,
                 ${f.rateCurrency} as cur, sum(${f.liters}) as quantity,
                 sum(evdra_owner_amount(${f.fuelPrice}, ${f.exchangeRate})) as cost, count(*) as fills
          from ${f} join ${vehicles} v on v.id = ${f.vehicleId} and v.secondary_fuel_type is not null
          where ${and(...where)}
          group by 1, 2, 3, 4, 5
        ) g
      ) b
      group by 1, 2, 3, 4, 5
      ) s
      group by 1, 2, 3`;
    // A single-fuel vehicle's fills in a row's month and answered currency. The row holds the whole
    // month (the usual case: one currency, or all at a known rate): counted from the index alone;
    // else only the fills whose currency the row's is.
    const inMonth = sql`${f.vehicleId} = r0."vehicleId" and ${f.date} >= r0."monthDate"
          and ${f.date} < (r0."monthDate" + interval '1 month')::date`;
    const singleFills = sql`case when r0.whole_month then (select count(*)::int from ${f} where ${inMonth})
      else (select count(*)::int from ${f} where ${inMonth}
          and case when (${sql.placeholder('rates')}::jsonb ->> ${f.rateCurrency}) is null then ${f.rateCurrency}
                   else ${sql.placeholder('currency')}::text end = r0.currency) end`;
    const singleFuel = sql`(select case when k.n > 0 then json_build_array(json_build_object(
        'fuelType', r0.fuel_type, 'unit', ${unitOf('r0.fuel_type')}, 'quantity', r0.liters,
        'cost', r0."totalFuelCost", 'fills', k.n)) else '[]'::json end
      from (select ${singleFills} as n offset 0) k)`;
    // A page of the admin's car-months: its range, the last car-month seen and its size.
    const from = sql`${sql.placeholder('from')}::date`;
    const until = sql`${sql.placeholder('until')}::date`;
    const afterMonth = sql`${sql.placeholder('afterMonth')}::date`;
    const afterVehicle = sql`${sql.placeholder('afterVehicle')}::int`;
    const limit = sql`${sql.placeholder('limit')}::int`;
    // Keys in the order of the AnalyticsRow schema.
    // `from`: the rollup rows (a page's keys joined to the table); `fillsWhere`: their fills.
    const rowsJson = (from: SQL, fillsWhere: SQL[]) =>
      sql`select ${jsonArrayText()} as json from (
        select r0."vehicleId", r0."vehicleMake", r0."vehicleModel", r0."ownerUsername", r0."monthDate",
               r0."totalCost", r0."totalFuelCost", r0."totalExpensesCost", r0."totalInsuranceCost",
               r0."totalRevisionCost", r0.currency,
               case when r0.two_fuels then coalesce(fb.by_fuel, '[]'::json) else ${singleFuel} end as "byFuel"
        from (
        select x.vehicle_id as "vehicleId", v.make as "vehicleMake", v.model as "vehicleModel",
               u.username as "ownerUsername", x.month as "monthDate",
               sum(x.fuel) + sum(x.expenses) + sum(x.insurance) + sum(x.revisions) as "totalCost",
               sum(x.fuel) as "totalFuelCost", sum(x.expenses) as "totalExpensesCost",
               sum(x.insurance) as "totalInsuranceCost", sum(x.revisions) as "totalRevisionCost",
               x.currency, v.fuel_type, v.secondary_fuel_type is not null as two_fuels, sum(x.liters) as liters,
               count(*) = max(x.month_rows) as whole_month
        from (
          select ${c.vehicleId} as vehicle_id, ${c.month} as month, ${c.liters} as liters,
                 count(*) over (partition by ${c.vehicleId}, ${c.month}) as month_rows,
                 case when ${rate} is null then ${c.currency} else ${sql.placeholder('currency')}::text end as currency,
                 ${converted(c.fuel)} as fuel, ${converted(c.expenses)} as expenses,
                 ${converted(c.insurance)} as insurance, ${converted(c.revisions)} as revisions
          from ${from}
        ) x
        join ${vehicles} v on v.id = x.vehicle_id
        join ${users} u on u.id = v.owner_id
        group by x.vehicle_id, v.make, v.model, u.username, x.month, x.currency, v.fuel_type, v.secondary_fuel_type
        having sum(x.liters + x.fuel + x.expenses + x.insurance + x.revisions) > 0
        ) r0
        left join (${byFuel(...fillsWhere)}) fb
          on fb.vehicle_id = r0."vehicleId" and fb.month = r0."monthDate" and fb.currency = r0.currency
        order by r0."monthDate" desc, r0."vehicleId", r0.currency) r`;
    // A page of car-months from the keys its `keys` query gives (newest month first, then by vehicle,
    // after the cursor, one more than the page), and the cursor of the next when that one more is there.
    const page = (name: string, keys: SQL) =>
      namedStatement<{ json: string; next: string | null }>(
        this.db,
        name,
        sql`with keys as (${keys}),
          page as (select month, vehicle_id from keys order by month desc, vehicle_id limit ${limit})
          select j.json, case when (select count(*) from keys) > ${limit} then
              (select to_char(month, 'YYYY-MM') || '_' || vehicle_id from page order by month, vehicle_id desc limit 1)
            end as next
          from (${rowsJson(
            // Joined from the page's keys (not `in` the page): PostgreSQL then expects the page's
            // thousand rows, not tens of thousands, and looks their cars up by key instead of
            // hashing all of them (a scan of 600,000 cars: a page of 1,000 took 250 ms at SCALE=1, 36 ms after).
            sql`page join ${c} on ${c.vehicleId} = page.vehicle_id and ${c.month} = page.month`,
            [
              sql`${f.vehicleId} in (select vehicle_id from page)`,
              sql`${f.date} >= (select min(month) from page)`,
              sql`${f.date} < (select max(month) from page) + interval '1 month'`,
            ],
          )}) j`,
      );
    const afterCursor = sql`(${c.month} < ${afterMonth} or (${c.month} = ${afterMonth} and ${c.vehicleId} > ${afterVehicle}))`;
    return {
      // Every owner's car-months in a range: one range read of the (month desc, vehicle) index.
      rangePageJson: page(
        'analytics_range_page_json',
        sql`select distinct ${c.month} as month, ${c.vehicleId} as vehicle_id from ${c}
            where ${c.month} >= ${from} and ${c.month} < ${until} and ${afterCursor}
            order by 1 desc, 2 limit ${limit} + 1`,
      ),
      // A user's: the newest months of each car they reach (its primary key's range), then the
      // newest of those; the months index would walk every owner's cars to find a fleet's.
      userPageJson: page(
        'analytics_user_page_json',
        sql`select k.month, k.vehicle_id from unnest(${reachedIds()}) as reached(vehicle_id)
            cross join lateral (select distinct ${c.month} as month, ${c.vehicleId} as vehicle_id from ${c}
              where ${c.vehicleId} = reached.vehicle_id and ${afterCursor}
              order by 1 desc limit ${limit} + 1) k
            order by 1 desc, 2 limit ${limit} + 1`,
      ),
    };
  }

  private costs?: Record<
    'monthly' | 'yearly' | 'total',
    NamedStatement<{ json: string | null; stamp: string }>
  >;
  private prepareCosts() {
    // The vehicle's months with any cost, each with its total, in the answer's currency: each month's
    // sum in each currency times that currency's rate (the service has one for every currency here).
    // The rates parsed once per statement (a subquery: an InitPlan), not once per row and column.
    const rate = sql`coalesce(((select ${sql.placeholder('rates')}::jsonb) ->> c.currency)::numeric, 1)`;
    const months = sql`
      select m.*, m.fuel + m.expenses + m.insurance + m.revisions as total from (
        select c.month, sum(c.liters) as liters, sum(round(c.fuel * ${rate}, 2)) as fuel,
               sum(round(c.expenses * ${rate}, 2)) as expenses, sum(round(c.insurance * ${rate}, 2)) as insurance,
               sum(round(c.revisions * ${rate}, 2)) as revisions
        from vehicle_month_costs c
        where c.vehicle_id = ${sql.placeholder('vehicleId')}
        group by c.month
        having sum(c.liters + c.fuel + c.expenses + c.insurance + c.revisions) > 0) m`;
    const currency = sql`${sql.placeholder('currency')}::text`;
    // The split by fuel, worked out by the service (the full-to-full chains are not SQL's).
    // A period's split is looked up through a join on json_each (the parameter parsed once), not
    // with -> per row: json's -> parses the whole text again on every call.
    const byFuel = sql`${sql.placeholder('byFuel')}::json`;
    // The split of a period without fills ('*'), an InitPlan: worked out once, and only if needed.
    const periodless = sql`(select ${byFuel} -> '*')`;
    // No row at all (not an empty answer) unless the user in `userId` reaches the vehicle.
    const ifReached = sql`having ${reachable(sql.placeholder('vehicleId'))}`;
    // json_build_object takes CostTotals' keys from sums named l, f, e, i, r and t.
    const costTotals = sql`'totalFuelLiters', l, 'totalFuelCost', f, 'totalExpensesCost', e,
      'totalInsuranceCost', i, 'totalRevisionCost', r, 'totalCost', t, 'currency', ${currency}`;
    // The answer only while the vehicle's context is the one `money` and `byFuel` came from; else null.
    // With the stamp it is true for, read in the same snapshot.
    const ifSeen = (
      answer: SQL,
    ) => sql`select case when k.key = ${sql.placeholder('key')} then a.json end as json, k.stamp
      from (${answer}) a cross join (select ${contextKey} as key, ${answerStamp} as stamp from vehicles v
        where v.id = ${sql.placeholder('vehicleId')}) k`;
    return {
      // Aggregated in the subquery's order (see jsonArrayText).
      monthly: namedStatement<{ json: string | null; stamp: string }>(
        this.db,
        'analytics_vehicle_monthly_json',
        ifSeen(sql`select coalesce(json_agg(r), '[]')::text as json from (
          select (extract(year from m.month) * 100 + extract(month from m.month))::int as id,
                 m.month as "monthDate", m.liters as "totalFuelLiters", m.fuel as "totalFuelCost",
                 m.expenses as "totalExpensesCost", m.insurance as "totalInsuranceCost",
                 m.revisions as "totalRevisionCost", m.total as "totalCost", ${currency} as currency,
                 coalesce(bf.value, ${periodless}, '[]'::json) as "byFuel"
          from (${months}) m left join json_each(${byFuel}) bf on bf.key = to_char(m.month, 'YYYY-MM')
          order by m.month desc) r
          ${ifReached}`),
      ),
      yearly: namedStatement<{ json: string | null; stamp: string }>(
        this.db,
        'analytics_vehicle_yearly_json',
        // Each year straight from the rollup's rows, as /total's sums: a year with any cost is a year
        // with a month with any cost (amounts are never negative).
        ifSeen(sql`select coalesce(json_object_agg(y.year, json_build_object(${costTotals},
            'byFuel', coalesce(bf.value, ${periodless})) order by y.year), '{}')::text as json
          from (select s.*, s.f + s.e + s.i + s.r as t from (
            select to_char(c.month, 'YYYY') as year, sum(c.liters) as l, sum(round(c.fuel * ${rate}, 2)) as f,
                   sum(round(c.expenses * ${rate}, 2)) as e, sum(round(c.insurance * ${rate}, 2)) as i,
                   sum(round(c.revisions * ${rate}, 2)) as r
            from vehicle_month_costs c where c.vehicle_id = ${sql.placeholder('vehicleId')}
            group by 1 having sum(c.liters + c.fuel + c.expenses + c.insurance + c.revisions) > 0 order by 1) s) y
          left join json_each(${byFuel}) bf on bf.key = y.year
          ${ifReached}`),
      ),
      // km driven: between the lowest and highest reading (fuel entries, services, the vehicle itself).
      total: namedStatement<{ json: string | null; stamp: string }>(
        this.db,
        'analytics_vehicle_total_json',
        // The sums straight from the rollup's rows (a month's sum in one currency each), each at its
        // rate to the cent as the months add them: every amount is 0 or more, so the months the
        // monthly answer leaves out (no cost) add nothing. The context is checked on the row read.
        sql`with readings as (
            select odometer as km from fuel_entries
              where vehicle_id = ${sql.placeholder('vehicleId')} and odometer is not null
            union all select km from revisions where vehicle_id = ${sql.placeholder('vehicleId')}
          ), span as (
            select coalesce(greatest(max(km), v.odometer) - min(km), 0)::int as km
            from readings, vehicles v where v.id = ${sql.placeholder('vehicleId')} group by v.odometer
          ), sums as (
            select s.*, s.f + s.e + s.i + s.r as t from (
              select coalesce(sum(c.liters), 0) as l, coalesce(sum(round(c.fuel * ${rate}, 2)), 0) as f,
                     coalesce(sum(round(c.expenses * ${rate}, 2)), 0) as e,
                     coalesce(sum(round(c.insurance * ${rate}, 2)), 0) as i,
                     coalesce(sum(round(c.revisions * ${rate}, 2)), 0) as r
              from vehicle_month_costs c where c.vehicle_id = ${sql.placeholder('vehicleId')}) s)
          select case when ${contextKey} = ${sql.placeholder('key')} then
                   json_build_object(${costTotals}, 'totalKm', coalesce(span.km, 0),
                     'costPerKm', case when span.km > 0 then round(t / span.km, 3) end,
                     'byFuel', ${byFuel})::text end as json, ${answerStamp} as stamp
          from vehicles v cross join sums left join span on true
          where v.id = ${sql.placeholder('vehicleId')} and ${reachable(sql.placeholder('vehicleId'))}`,
      ),
    };
  }
}
