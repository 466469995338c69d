import {
  type ConsumptionUnitCode,
  type CurrencyCode,
  convertMoney,
  type DistanceUnitCode,
  type FuelType,
  type Language,
  REVISION_INTERVAL_KM,
  REVISION_INTERVAL_MONTHS,
  type VolumeUnitCode,
} from '@evdra/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { latestRateSql } from '../db/fx-rates.js';
import { type NamedStatement, namedStatement } from '../db/statement.js';
import { METRIC_UNITS, type ReaderUnits } from '../lib/reader-format.js';
import { VersionedCache } from '../lib/versioned-cache.js';
import type { EvaluationBasis } from './basis.js';
import { round2, typicalConsumption, type VehicleFacts } from './facts.js';

type Num = string | number | null;
const num = (v: Num): number => (v == null ? 0 : Number(v));
const opt = (v: Num): number | null => (v == null ? null : Number(v));
/** Units of `to` for one unit of each currency with a known rate on `until` (`to` itself is 1). */
export type LatestRatesTo = (to: CurrencyCode, until: string) => Promise<Map<CurrencyCode, number>>;

type Dated = { v: Num; d: string } | null;
const dated = (x: Dated) => (x && x.v != null ? { value: round2(Number(x.v)), date: x.d } : null);

/**
 * The facts layer: every figure the AI uses, aggregated by SQL from the records of the vehicles a
 * user reaches (the vehicle_access rule: owned or shared with them; one of them, or all). One
 * statement for any number of vehicles. (`owner` is the reading user.)
 */
export class FactsRepo {
  /**
   * `latestRatesTo`: the day's rates to a currency (FxService.latestRatesTo, handed in by the caller:
   * a repo does not reach up into a service).
   */
  constructor(
    private readonly db: Db,
    private readonly latestRatesTo: LatestRatesTo,
  ) {}

  async forOwner(ownerId: number, today: string): Promise<VehicleFacts[]> {
    this.statements.owner ??= namedStatement<FactsRow>(this.db, 'facts_by_owner', factsQuery('owner'));
    const vs = await this.statements.owner({ owner: ownerId, today });
    const reader = vs[0]?.readerCurrency ?? null;
    const rates = vs.some((v) => reader && v.currency && v.currency !== reader)
      ? await this.ratesTo(reader as CurrencyCode, today)
      : undefined;
    return vs.map((v) => {
      const facts = toFacts(v, today);
      return { ...inCurrency(facts, reader, rates), units: readerUnits(v) };
    });
  }

  /**
   * Undefined unless the vehicle exists and the user reaches it (owner, editor or viewer).
   * The records' aggregates, the heaviest read of the AI routes, are kept per vehicle and day at the
   * vehicle's records version (vehicle_record_versions, bumped by triggers on every record write):
   * while it holds, a summary costs one indexed lookup of the vehicle row, which is always read fresh.
   * The facts are shared by every caller while they hold: read them, never change them.
   * The reading user's saved language comes in the same row: every answer written from the facts
   * needs it, and a statement of its own was a second round trip and pool checkout per answer.
   */
  async forVehicle(
    ownerId: number,
    vehicleId: number,
    today: string,
  ): Promise<{ facts: VehicleFacts; readerLanguage: Language | null } | undefined> {
    const found = await this.sharedFacts(ownerId, vehicleId, today);
    if (!found) return undefined;
    const { facts, reader } = found;
    // Issue 50: the amounts in the reader's currency. The kept facts are in the owner's; a reader who
    // pays in another (a shared car's viewer or editor) reads them converted at the day's rate.
    const rates =
      reader.currency && facts.currency && reader.currency !== facts.currency
        ? await this.ratesTo(reader.currency, today)
        : undefined;
    return { facts: forReader(facts, reader, rates), readerLanguage: reader.language };
  }

  /**
   * Units of `to` for one unit of each currency with a known rate on `today` (the analytics' rates:
   * FxService.latestRatesTo), kept a minute per currency and day: a rate changes once a day.
   */
  private ratesTo(to: CurrencyCode, today: string): Promise<ReadonlyMap<CurrencyCode, number>> {
    const key = `${to}|${today}`;
    const at = Date.now();
    const hit = this.rates.get(key);
    if (hit && hit.until > at) return hit.rates;
    const rates = this.latestRatesTo(to, today);
    this.rates.set(key, { until: at + 60_000, rates });
    rates.catch(() => this.rates.delete(key));
    return rates;
  }
  private readonly rates = new Map<string, { until: number; rates: Promise<Map<CurrencyCode, number>> }>();

  /** The vehicle's facts as every reader shares them (no reader's units), and the reader's settings. */
  private async sharedFacts(ownerId: number, vehicleId: number, today: string) {
    this.vehicleNow ??= namedStatement<VehicleNow>(this.db, 'facts_vehicle_now', vehicleNowQuery());
    const [vehicle] = await this.vehicleNow({ owner: ownerId, vehicle: vehicleId });
    if (!vehicle) return undefined;
    // The aggregates are in the owner's currency: another currency is another entry.
    const aggregates = await this.aggregates.through(
      `${vehicleId}|${today}|${vehicle.currency}`,
      vehicle.recordsVersion,
      async () => {
        this.statements.vehicle ??= namedStatement<FactsRow>(
          this.db,
          'facts_by_vehicle',
          factsQuery('vehicle'),
        );
        const [row] = await this.statements.vehicle({ owner: ownerId, vehicle: vehicleId, today });
        return (
          row && {
            fuel: row.fuel,
            costs: row.costs,
            services: row.services,
            insurance: row.insurance,
            expenses: row.expenses,
          }
        );
      },
    );
    if (!aggregates) return undefined;
    // The facts themselves are kept while neither the records nor the vehicle's columns change: the
    // same object then comes back, and the texts written from it can be kept with it (BuiltinProvider).
    const facts = await this.facts.through(
      `${vehicleId}|${today}`,
      `${vehicle.recordsVersion}|${vehicle.columnsText}`,
      async () => {
        const { recordsVersion, columnsText, readerLanguage, ...columns } = vehicle;
        return toFacts({ ...columns, ...aggregates }, today);
      },
    );
    return (
      facts && {
        facts,
        reader: {
          language: vehicle.readerLanguage,
          currency: vehicle.readerCurrency,
          ...readerUnits(vehicle),
        },
      }
    );
  }

  private vehicleNow?: NamedStatement<VehicleNow>;
  private readonly aggregates = new VersionedCache<Aggregates>(2000, () => 1);
  private readonly facts = new VersionedCache<VehicleFacts, string>(2000, () => 1);

  /**
   * Keeps an evaluation on the vehicle row (integral 1–10) and bumps its version: its reason as the
   * evaluating reader reads it and, when it can be written again for another reader, its basis (null
   * otherwise, so an earlier evaluation's basis never outlives it).
   */
  async saveScore(vehicleId: number, score: number, reason: string, basis?: EvaluationBasis) {
    await this.db.execute(sql`
      update vehicles set ai_score = ${score}, ai_score_reason = ${reason},
             ai_score_basis = ${basis ? JSON.stringify(basis) : null}::jsonb,
             version = version + 1, updated_at = now()
       where id = ${vehicleId}`);
  }

  /** Named statements; PostgreSQL plans each once per connection (planning cost more than running it). */
  private readonly statements: Partial<Record<'vehicle' | 'owner', NamedStatement<FactsRow>>> = {};
}

/** A vehicle's facts from its row: its columns and its records' aggregates. */
function toFacts(v: FactsRow, today: string): VehicleFacts {
  const year = Number(today.slice(0, 4));
  const engineSize = num(v.engineSize);
  const { costs: c, fuel: f, services: s, insurance: ins, expenses: e } = v;
  const cats = {
    fuel: round2(num(c?.fuel ?? null)),
    expenses: round2(num(c?.expenses ?? null)),
    insurance: round2(num(c?.insurance ?? null)),
    revisions: round2(num(c?.revisions ?? null)),
  };
  const total = round2(cats.fuel + cats.expenses + cats.insurance + cats.revisions);
  const readings = [f?.kmLow, f?.kmHigh, s?.kmLow, s?.kmHigh].filter((k) => k != null).map(Number);
  const kmHigh = Math.max(v.odometer, ...readings);
  const km = readings.length === 0 ? 0 : Math.max(0, kmHigh - Math.min(...readings));
  const biggest = (Object.entries(cats) as [keyof typeof cats, number][]).sort((a, b) => b[1] - a[1])[0];
  const ageYears = Math.max(0, year - v.year);
  const records = {
    fuel: num(f?.n ?? null),
    expenses: num(e?.n ?? null),
    insurances: num(ins?.n ?? null),
    revisions: num(s?.n ?? null),
    total: 0,
  };
  records.total = records.fuel + records.expenses + records.insurances + records.revisions;
  const ins2 = (x: { p: string; e: string; d: Num } | null | undefined) =>
    x ? { provider: x.p, endDate: x.e, daysLeft: num(x.d) } : null;
  const lastKm = s?.lastDate ? num(s.lastKm) : null;
  return {
    currency: v.currency ?? 'EUR',
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
      largestExpense: e
        ? { type: e.largest.type, amount: round2(num(e.largest.amount)), date: e.largest.date }
        : null,
      months: (c?.months ?? []).map((m) => ({
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
      earlierPricePerUnit: f?.earlierPrice == null ? null : Math.round(Number(f.earlierPrice) * 1000) / 1000,
      typicalConsumption: typicalConsumption(v.fuelType, engineSize),
      ...(f?.byFuel && f.byFuel.length > 1
        ? {
            byFuel: f.byFuel.map((x) => ({
              fuelType: x.fuelType,
              fills: num(x.n),
              quantity: round2(num(x.quantity)),
              spent: round2(num(x.spent)),
              avgConsumption: x.avg == null ? null : round2(Number(x.avg)),
              costPerKm: km > 0 ? Math.round((num(x.spent) / km) * 1000) / 1000 : null,
            })),
          }
        : {}),
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
}

/** The reading user's units as a row carries them (null: no such user, metric). */
type ReaderColumns = {
  distanceUnit: DistanceUnitCode | null;
  volumeUnit: VolumeUnitCode | null;
  consumptionUnit: ConsumptionUnitCode | null;
};
const readerUnits = (r: ReaderColumns): ReaderUnits => ({
  distanceUnit: r.distanceUnit ?? METRIC_UNITS.distanceUnit,
  volumeUnit: r.volumeUnit ?? METRIC_UNITS.volumeUnit,
  consumptionUnit: r.consumptionUnit ?? METRIC_UNITS.consumptionUnit,
});

/**
 * The shared facts with one reader's units and currency, the same object for the same facts, units and
 * currency, so the texts kept with a facts object (BuiltinProvider) are still written once per reader's
 * units and currency.
 */
const readerViews = new WeakMap<VehicleFacts, Map<string, VehicleFacts>>();
function forReader(
  facts: VehicleFacts,
  reader: ReaderUnits & { currency: CurrencyCode | null },
  rates: ReadonlyMap<CurrencyCode, number> | undefined,
): VehicleFacts {
  let views = readerViews.get(facts);
  if (!views) {
    views = new Map();
    readerViews.set(facts, views);
  }
  const rate = facts.currency && rates?.get(facts.currency);
  const key = `${reader.distanceUnit}|${reader.volumeUnit}|${reader.consumptionUnit}|${rate ? `${reader.currency}@${rate}` : ''}`;
  let view = views.get(key);
  if (!view) {
    view = {
      ...inCurrency(facts, reader.currency, rates),
      units: {
        distanceUnit: reader.distanceUnit,
        volumeUnit: reader.volumeUnit,
        consumptionUnit: reader.consumptionUnit,
      },
    };
    views.set(key, view);
  }
  return view;
}

/**
 * The facts with every amount in `currency`, at its rate from the facts' currency (units of `currency`
 * for one; `rates` as FxService.latestRatesTo gives them), each rounded to the cent as the analytics
 * round (a price per unit and a cost per km to 3 decimals, as the facts keep them). The facts as they
 * are when they already are in it, or when no rate to it is known: then the amounts stay in the
 * owner's currency and say so (facts.currency), never relabelled.
 */
function inCurrency(
  facts: VehicleFacts,
  currency: CurrencyCode | null,
  rates: ReadonlyMap<CurrencyCode, number> | undefined,
): VehicleFacts {
  const rate =
    facts.currency && currency && facts.currency !== currency ? rates?.get(facts.currency) : undefined;
  if (!rate || !currency) return facts;
  const m = (amount: number) => convertMoney(amount, rate);
  const m3 = (amount: number | null) => (amount == null ? null : Math.round(amount * rate * 1000) / 1000);
  const c = facts.costs;
  return {
    ...facts,
    currency,
    costs: {
      ...c,
      fuel: m(c.fuel),
      expenses: m(c.expenses),
      insurance: m(c.insurance),
      revisions: m(c.revisions),
      total: m(c.total),
      costPerKm: m3(c.costPerKm),
      biggestCategory: c.biggestCategory && { ...c.biggestCategory, amount: m(c.biggestCategory.amount) },
      biggestMonth: c.biggestMonth && { ...c.biggestMonth, amount: m(c.biggestMonth.amount) },
      last3MonthlyAvg: m(c.last3MonthlyAvg),
      prev12MonthlyAvg: m(c.prev12MonthlyAvg),
      largestExpense: c.largestExpense && { ...c.largestExpense, amount: m(c.largestExpense.amount) },
      months: c.months.map((x) => ({ ...x, fuel: m(x.fuel), total: m(x.total) })),
    },
    fuel: {
      ...facts.fuel,
      spent: m(facts.fuel.spent),
      recentPricePerUnit: m3(facts.fuel.recentPricePerUnit),
      earlierPricePerUnit: m3(facts.fuel.earlierPricePerUnit),
      ...(facts.fuel.byFuel
        ? { byFuel: facts.fuel.byFuel.map((x) => ({ ...x, spent: m(x.spent), costPerKm: m3(x.costPerKm) })) }
        : {}),
    },
  };
}

type Insured = { p: string; e: string; d: Num } | null;
/** The records' part of a FactsRow, kept between reads while the records are unchanged. */
type Aggregates = Pick<FactsRow, 'fuel' | 'costs' | 'services' | 'insurance' | 'expenses'>;
/** `columnsText`: the columns as one row literal, which changes whenever any of them does. */
type VehicleNow = Omit<FactsRow, keyof Aggregates> & {
  recordsVersion: number;
  columnsText: string;
  readerLanguage: Language | null;
};
/** One vehicle's row: its columns, then each record kind's aggregate as JSON (null without records). */
type FactsRow = ReaderColumns & {
  id: number;
  /** The reading user's currency (null: no such user). */
  readerCurrency: CurrencyCode | null;
  /** The owner's currency: every amount of the facts is in it. */
  currency: CurrencyCode | null;
  make: string;
  model: string;
  year: number;
  fuelType: VehicleFacts['vehicle']['fuelType'];
  engineSize: Num;
  odometer: number;
  registrationNumber: string;
  consent: boolean;
  fuel: {
    n: Num;
    kmLow: Num;
    kmHigh: Num;
    quantity: Num;
    spent: Num;
    measured: Num;
    avg: Num;
    latest: Dated;
    best: Dated;
    worst: Dated;
    recentPrice: Num;
    earlierPrice: Num;
    byFuel: { fuelType: FuelType; n: Num; quantity: Num; spent: Num; avg: Num }[] | null;
  } | null;
  costs: {
    fuel: Num;
    expenses: Num;
    insurance: Num;
    revisions: Num;
    last3: Num;
    prev12: Num;
    prev12Months: Num;
    bestMonth: string | null;
    bestMonthAmount: Num;
    months: { month: string; fuel: Num; liters: Num; total: Num }[];
  } | null;
  services: {
    n: Num;
    kmLow: Num;
    kmHigh: Num;
    lastDate: string | null;
    lastKm: Num;
    avgKm: Num;
    avgDays: Num;
    nextDate: string | null;
    daysLeft: Num;
  } | null;
  insurance: { n: Num; gaps: Num; current: Insured; latest: Insured } | null;
  expenses: { n: Num; largest: { type: string; amount: Num; date: string } } | null;
};

/** The vehicle's own columns as FactsRow names them, and its records version; only if the user reaches it. */
function vehicleNowQuery(): SQL {
  return sql`
    select v.id, v.make, v.model, v.year, v.fuel_type as "fuelType", v.engine_size as "engineSize",
           v.odometer, v.registration_number as "registrationNumber", v.ai_evaluation_consent as consent,
           coalesce(rv.version, 0)::float8 as "recordsVersion",
           o.currency,
           row(v.make, v.model, v.year, v.fuel_type, v.engine_size, v.odometer, v.registration_number,
               v.ai_evaluation_consent, o.currency)::text as "columnsText",
           r.language as "readerLanguage", r.currency as "readerCurrency", r.distance_unit as "distanceUnit", r.volume_unit as "volumeUnit",
           r.consumption_unit as "consumptionUnit"
      from vehicles v left join vehicle_record_versions rv on rv.vehicle_id = v.id
      join users o on o.id = v.owner_id
      left join users r on r.id = ${sql.placeholder('owner')}
     where v.id = ${sql.placeholder('vehicle')}
       and v.id in (select vehicle_id from vehicle_access where user_id = ${sql.placeholder('owner')})`;
}

/**
 * Reads each record table once for the chosen vehicles, and gets every per-vehicle figure from
 * one grouped pass over it: window columns (ranks, minima, maxima) instead of a correlated
 * subquery per figure, which re-scanned the rows once per figure and per vehicle.
 */
function factsQuery(scope: 'vehicle' | 'owner'): SQL {
  const t = sql`${sql.placeholder('today')}::date`;
  const month = sql`date_trunc('month', ${t})`;
  const interval = `${REVISION_INTERVAL_MONTHS} months`;
  // Issue 50: every amount in its owner's currency now. A record's amount at its stored rate is in its
  // rate_currency (the owner's when written); for an owner who has changed currency since, it is
  // converted at the day's reference rate, as the analytics convert (1: the same currency).
  const k = (rateCurrency: SQL, vehicleId: SQL) =>
    sql`coalesce(${latestRateSql(rateCurrency, sql`(select vs.cur from vs where vs.id = ${vehicleId})`, t)}, 1)`;
  return sql`
    with vs as (
      select id, owner_id, make, model, year, fuel_type, secondary_fuel_type, engine_size, odometer, registration_number, ai_evaluation_consent,
             (select u.currency from users u where u.id = owner_id) as cur
        from vehicles
       where id in (select vehicle_id from vehicle_access where user_id = ${sql.placeholder('owner')})${scope === 'vehicle' ? sql` and id = ${sql.placeholder('vehicle')}` : sql``}),
    f as (
      -- Money in the owner's currency: each fill-up's amount at its stored rate (issue 50), times k.
      select vehicle_id, id, date, odometer, liters, fuel_type,
             round(fuel_price * coalesce(exchange_rate, 1) * k, 2) as fuel_price, consumption_per_100km as c,
             coalesce(price_per_liter * coalesce(exchange_rate, 1), fuel_price * coalesce(exchange_rate, 1) / nullif(liters, 0)) * k as ppu,
             row_number() over (partition by vehicle_id order by date desc, id desc) as rn,
             min(consumption_per_100km) over whole as minc, max(consumption_per_100km) over whole as maxc,
             max(date) filter (where consumption_per_100km is not null) over whole as lastd
        from (select fe.*, ${k(sql`fe.rate_currency`, sql`fe.vehicle_id`)} as k
                from fuel_entries fe where fe.vehicle_id in (select id from vs)) fe
      window whole as (partition by vehicle_id)),
    -- A two-fuel vehicle's fuels (issue 51): a fill of a fuel it lacks counts as its primary's.
    fb as (
      select f.vehicle_id, case when f.fuel_type = vs.secondary_fuel_type then f.fuel_type else vs.fuel_type end as fuel,
             count(*) as n, sum(f.liters) as quantity, sum(f.fuel_price) as spent, avg(f.c) as avg,
             (case when f.fuel_type = vs.secondary_fuel_type then f.fuel_type else vs.fuel_type end) = vs.fuel_type as primary_fuel
        from f join vs on vs.id = f.vehicle_id
       where vs.secondary_fuel_type is not null
       group by 1, 2, vs.fuel_type),
    fa as (
      select vehicle_id, count(*) as n,
             (select json_agg(json_build_object('fuelType', fb.fuel, 'n', fb.n, 'quantity', fb.quantity,
                                                'spent', fb.spent, 'avg', fb.avg) order by fb.primary_fuel desc)
                from fb where fb.vehicle_id = f.vehicle_id) as "byFuel", min(odometer) as "kmLow", max(odometer) as "kmHigh",
             sum(liters) as quantity, sum(fuel_price) as spent, count(c) as measured, avg(c) as avg,
             case when count(c) > 0 then json_build_object(
               'v', (array_agg(c order by id desc) filter (where date = lastd and c is not null))[1],
               'd', to_char(max(lastd), 'YYYY-MM-DD')) end as latest,
             case when count(c) > 0 then json_build_object(
               'v', min(c), 'd', to_char(max(date) filter (where c = minc), 'YYYY-MM-DD')) end as best,
             case when count(c) > 0 then json_build_object(
               'v', max(c), 'd', to_char(max(date) filter (where c = maxc), 'YYYY-MM-DD')) end as worst,
             avg(ppu) filter (where rn <= 3) as "recentPrice",
             avg(ppu) filter (where rn > 3) as "earlierPrice"
        from f group by vehicle_id),
    -- One row a month (the rollup keeps one per currency, issue 50: an owner who changed currency has
    -- two), each currency's sums in the owner's now (to the cent, as the analytics).
    mk as (
      select vehicle_id, month, liters, round(fuel * k, 2) as fuel, round(expenses * k, 2) as expenses,
             round(insurance * k, 2) as insurance, round(revisions * k, 2) as revisions
        from (select c.*, ${k(sql`c.currency`, sql`c.vehicle_id`)} as k
                from vehicle_month_costs c where c.vehicle_id in (select id from vs)) c),
    mc as (
      select vehicle_id, month, sum(fuel) as fuel, sum(liters) as liters, sum(expenses) as expenses,
             sum(insurance) as insurance, sum(revisions) as revisions,
             sum(fuel + expenses + insurance + revisions) as total,
             row_number() over (partition by vehicle_id
                                order by sum(fuel + expenses + insurance + revisions) desc, month desc) as rank
        from mk group by vehicle_id, month),
    ca as (
      select vehicle_id, sum(fuel) as fuel, sum(expenses) as expenses, sum(insurance) as insurance,
             sum(revisions) as revisions,
             coalesce(sum(total) filter (where month >= ${month} - interval '2 months' and month <= ${month}), 0) as last3,
             coalesce(sum(total) filter (where month < ${month} - interval '2 months'
                                           and month >= ${month} - interval '14 months'), 0) as prev12,
             count(*) filter (where total > 0 and month < ${month} - interval '2 months'
                                and month >= ${month} - interval '14 months') as "prev12Months",
             max(to_char(month, 'YYYY-MM')) filter (where rank = 1 and total > 0) as "bestMonth",
             max(total) as "bestMonthAmount",
             coalesce(json_agg(json_build_object('month', to_char(month, 'YYYY-MM'), 'fuel', fuel,
                                                 'liters', liters, 'total', total) order by month)
                        filter (where total + liters > 0), '[]') as months
        from mc group by vehicle_id),
    r as (
      select vehicle_id, date, km, manual_reminder_date,
             km - lag(km) over byDate as dkm, date - lag(date) over byDate as ddays,
             row_number() over (partition by vehicle_id order by date desc, id desc) as rn
        from revisions where vehicle_id in (select id from vs)
      window byDate as (partition by vehicle_id order by date, id)),
    ra as (
      select vehicle_id, count(*) as n, min(km) as "kmLow", max(km) as "kmHigh",
             max(to_char(date, 'YYYY-MM-DD')) filter (where rn = 1) as "lastDate",
             max(km) filter (where rn = 1) as "lastKm",
             avg(dkm) filter (where dkm > 0) as "avgKm", avg(ddays) as "avgDays",
             max(to_char(coalesce(manual_reminder_date, (date + ${interval}::interval)::date), 'YYYY-MM-DD')) filter (where rn = 1) as "nextDate",
             max(coalesce(manual_reminder_date, (date + ${interval}::interval)::date) - ${t}) filter (where rn = 1) as "daysLeft"
        from r group by vehicle_id),
    i as (
      select vehicle_id, provider, start_date, end_date,
             ${t} between start_date and end_date as running,
             lag(end_date) over (partition by vehicle_id order by start_date, id) as prev_end,
             row_number() over (partition by vehicle_id order by end_date desc, id desc) as latest_rank,
             row_number() over (partition by vehicle_id, ${t} between start_date and end_date
                                order by end_date desc, id desc) as running_rank
        from insurances where vehicle_id in (select id from vs)),
    ia as (
      select vehicle_id, count(*) as n,
             count(*) filter (where prev_end is not null and start_date > prev_end + 1) as gaps,
             (array_agg(json_build_object('p', provider, 'e', to_char(end_date, 'YYYY-MM-DD'), 'd', end_date - ${t}))
                filter (where running and running_rank = 1))[1] as current,
             (array_agg(json_build_object('p', provider, 'e', to_char(end_date, 'YYYY-MM-DD'), 'd', end_date - ${t}))
                filter (where latest_rank = 1))[1] as latest
        from i group by vehicle_id),
    -- The largest expense in the owner's currency (an expense paid in euros by a lei owner at its rate).
    ea as (
      select distinct on (vehicle_id) vehicle_id, count(*) over (partition by vehicle_id) as n,
             json_build_object('type', expense_type, 'amount', owned, 'date', to_char(date, 'YYYY-MM-DD')) as largest
        from (select e.*, round(e.amount * coalesce(e.exchange_rate, 1) * ${k(sql`e.rate_currency`, sql`e.vehicle_id`)}, 2) as owned
                from expenses e where e.vehicle_id in (select id from vs)) e
       order by vehicle_id, owned desc, date desc)
    select vs.id, vs.make, vs.model, vs.year, vs.fuel_type as "fuelType", vs.engine_size as "engineSize",
           vs.odometer, vs.registration_number as "registrationNumber", vs.ai_evaluation_consent as consent,
           to_json(fa) as fuel, to_json(ca) as costs, to_json(ra) as services, to_json(ia) as insurance,
           to_json(ea) as expenses,
           o.currency, r.currency as "readerCurrency", r.distance_unit as "distanceUnit",
           r.volume_unit as "volumeUnit", r.consumption_unit as "consumptionUnit"
      from vs
      join users o on o.id = vs.owner_id
      left join users r on r.id = ${sql.placeholder('owner')}
      left join fa on fa.vehicle_id = vs.id
      left join ca on ca.vehicle_id = vs.id
      left join ra on ra.vehicle_id = vs.id
      left join ia on ia.vehicle_id = vs.id
      left join ea on ea.vehicle_id = vs.id
     order by vs.id`;
}
