import {
  type AllTimeTotals,
  CAR_MONTHS_CAP,
  type CurrencyCode,
  type FuelSplit,
  type FuelType,
  fuelFigures,
  fuelFiguresBy,
  fuelOfFill,
  type MonthlyAnalytics,
  type YearlyAnalytics,
} from '@evdra/domain';
import { ratesKey } from '../../lib/answer-money.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { VehicleAccess } from '../records/records.service.js';
import type {
  AnalyticsRepo,
  AnswerMoney,
  CarMonthsPage,
  FuelFills,
  VehicleContext,
} from './analytics.repo.js';
import { AnswersKept } from './answers-kept.js';

/**
 * How many vehicle and reader pairs' contexts are kept: as many as the repo keeps vehicles' fills (a
 * context holds its vehicle's), so the fills kept stay bounded as they were.
 */
const CONTEXTS_KEPT = 500;
/** How many bytes of answers are kept for reading again unchanged (AnswersKept). */
const ANSWER_BYTES_KEPT = 8_000_000;

/**
 * Units of `to` for one unit of each currency with a known rate, at the day's rate (the fx module's,
 * given by the app); `to` itself is 1.
 */
export type RatesTo = (to: CurrencyCode) => Promise<ReadonlyMap<CurrencyCode, number>>;

/**
 * Cost analytics: per vehicle (monthly, yearly, all time), per user, and across everyone (admin), in
 * the reader's currency or the one asked for (issue 50). The sums the database keeps are each
 * record's amount times its stored rate, in its owner's currency; another currency is reached at the
 * day's rate, month by month (to the cent), so the owner's own currency gives back the stored sums
 * exactly, whatever currency they read in between.
 */
export class AnalyticsService {
  /** byFuelJson's answers for the fills the repo keeps, by kind and money (gone with the fills). */
  private readonly splits = new WeakMap<FuelFills, Map<string, string>>();
  /** Each vehicle's context (repo.vehicleContext) as last read, by vehicle and reader. */
  private readonly contexts = new Map<string, VehicleContext>();
  /**
   * Answers as written, by vehicle, reader, kind and money: a car's costs are read far more often
   * than its records change, and checking a stamp costs a third of writing the answer again.
   */
  private readonly answers = new AnswersKept(ANSWER_BYTES_KEPT);

  constructor(
    private readonly repo: AnalyticsRepo,
    private readonly access: VehicleAccess,
    private readonly ratesTo: RatesTo = async (to) => new Map([[to, 1]]),
    /** The instance's currency (CURRENCY): the admin's global analytics default to it. */
    private readonly instanceCurrency: CurrencyCode = 'EUR',
  ) {}

  /**
   * One vehicle's costs as JSON text (MonthlyAnalytics[], YearlyAnalytics or AllTimeTotals), with the
   * access check in the same statement (its owner or a share, or any for an admin); when it says no,
   * the access check tells a vehicle that is not there from one that is not theirs (404). In
   * `currency`, else the reader's, else (no rate known to the reader's) the owner's; 404 when the
   * currency asked for has no known rate from one the sums are in.
   */
  async vehicleJson(
    p: Principal,
    kind: 'monthly' | 'yearly' | 'total',
    vehicleId: number,
    currency?: CurrencyCode,
  ): Promise<Buffer> {
    const json = await this.answer(kind, vehicleId, {
      userId: p.role === 'ADMIN' ? null : p.userId,
      readerId: p.userId,
      asked: currency,
      // Only a reader of the vehicle learns which currencies its costs are in.
      denied: () => this.access(p, vehicleId),
    });
    if (json !== undefined) return json;
    await this.access(p, vehicleId);
    throw notFound('Vehicle');
  }

  /**
   * One vehicle's answer (see vehicleJson; undefined: not there or not reached). What it depends on
   * besides the rollup (currencies, fills: the repo's vehicleContext) is kept per vehicle and reader,
   * and the answering statement checks it is still so: one statement per read, not three (the
   * context, the fills' stamp, the answer). When it has changed, it is read again and the answer asked
   * again.
   */
  private async answer(
    kind: 'monthly' | 'yearly' | 'total',
    vehicleId: number,
    o: {
      userId: number | null;
      readerId: number;
      asked?: CurrencyCode;
      denied?: () => Promise<unknown>;
      /** Without the split by fuel (the report's months): byFuel []. */
      noSplit?: boolean;
    },
  ): Promise<Buffer | undefined> {
    const key = `${vehicleId}:${o.readerId}`;
    for (let attempt = 0; attempt < 5; attempt++) {
      const context = this.contexts.get(key) ?? (await this.readContext(key, vehicleId, o.readerId));
      if (!context) return undefined;
      const money = await this.moneyFor(context.currencies, o.asked).catch(async (err: unknown) => {
        await o.denied?.();
        throw err;
      });
      const kept = `${key}|${kind}|${o.noSplit ? '-' : '+'}|${keyOf(money)}`;
      const answer = this.answers.get(kept);
      if (answer) {
        // The stamp also says whether the user still reaches the vehicle (undefined: not).
        const stamp = await this.repo.answerStamp(vehicleId, o.userId, o.readerId);
        if (stamp === undefined) return undefined;
        if (stamp === answer.stamp) return answer.json;
      }
      const byFuel = o.noSplit ? '{}' : this.byFuelJson(kind, context.fuels, money);
      const row = await this.repo.vehicleJson(kind, vehicleId, o.userId, money, byFuel, {
        readerId: o.readerId,
        key: context.key,
      });
      if (!row) return undefined;
      if (row.json !== null) return this.answers.set(kept, row.stamp, row.json);
      this.contexts.delete(key);
    }
    throw new Error(`vehicle ${vehicleId} changed on every read of its analytics`);
  }

  private async readContext(key: string, vehicleId: number, readerId: number) {
    const context = await this.repo.vehicleContext(vehicleId, readerId);
    if (!context) return undefined;
    this.contexts.delete(key);
    this.contexts.set(key, context);
    // The longest kept goes first (a Map keeps insertion order).
    if (this.contexts.size > CONTEXTS_KEPT) this.contexts.delete(this.contexts.keys().next().value as string);
    return context;
  }

  /**
   * The split by fuel (issue 51) of /total (a FuelSplit array), /yearly (by year, and '*' for a
   * year without fills) or /recompute (by month 'YYYY-MM', and '*' for a month without fills), as
   * JSON for the statement that writes the answer.
   */
  private byFuelJson(kind: 'monthly' | 'yearly' | 'total', data: FuelFills, money: AnswerMoney): string {
    // The repo hands back the same fills while they are unchanged: their split is worked out once
    // per kind and money, not on every read.
    const answers = this.splits.get(data) ?? new Map<string, string>();
    this.splits.set(data, answers);
    const key = `${kind}|${keyOf(money)}`;
    const json = answers.get(key) ?? splitJson(kind, data, money);
    answers.set(key, json);
    return json;
  }

  /** The answer's currency and rates for sums in `present` (see vehicleJson). */
  private async moneyFor(
    c: { owner: CurrencyCode; reader: CurrencyCode; present: CurrencyCode[] },
    asked?: CurrencyCode,
  ): Promise<AnswerMoney> {
    const candidates = asked ? [asked] : [c.reader, c.owner];
    for (const currency of candidates) {
      // Sums already in the answer's currency need no rate (the common case: one currency).
      if (c.present.every((p) => p === currency)) return inOwnCurrency(currency);
      const rates = await this.ratesTo(currency);
      if (c.present.every((p) => rates.has(p))) return atRates(currency, rates);
    }
    const [target] = candidates as [CurrencyCode];
    const missing = c.present.filter((p) => p !== target).join(', ');
    throw new AppError(404, 'NOT_FOUND', `No exchange rate from ${missing} to ${target} is known.`);
  }

  /**
   * One vehicle's months, yearly totals and all-time totals for a caller whose access to the vehicle
   * is already settled (the history report checks it itself, shared users included). In the owner's
   * currency (reader 0, no one: the report's verification code is worked out from these), or for
   * `readerId` in their currency as their analytics are (else, with no rate known to it, the
   * owner's); `money` is the currency the answer is in and the rates it was reached at, for the
   * report's records to be converted at the same.
   */
  async vehicleCosts(
    vehicleId: number,
    readerId = 0,
  ): Promise<{
    months: { month: string; fuel: number }[];
    yearly: YearlyAnalytics;
    total: AllTimeTotals;
    money: AnswerMoney;
  }> {
    const [monthly, yearly, total] = await Promise.all(
      (['monthly', 'yearly', 'total'] as const).map(async (kind) =>
        JSON.parse(
          (
            await this.answer(kind, vehicleId, { userId: null, readerId, noSplit: kind === 'monthly' })
          )?.toString() ?? 'null',
        ),
      ),
    );
    if (!total) throw notFound('Vehicle');
    // The context the answers were just given under (kept by answer()), so the money is theirs.
    const key = `${vehicleId}:${readerId}`;
    const context = this.contexts.get(key) ?? (await this.readContext(key, vehicleId, readerId));
    if (!context) throw notFound('Vehicle');
    return {
      months: (monthly as MonthlyAnalytics[]).map((m) => ({ month: m.monthDate, fuel: m.totalFuelCost })),
      yearly,
      total,
      money: await this.moneyFor(context.currencies),
    };
  }

  /**
   * The caller's vehicles (own and shared with them; `own`: only own) by vehicle and month, newest
   * month first, then by vehicle: at most `limit` car-months (without it CAR_MONTHS_CAP) after
   * `cursor`, as JSON text, in `currency` (default: the caller's); `next`: the cursor of the page
   * after it, when car-months follow.
   */
  async user(
    p: Principal,
    q: { own?: boolean; currency?: CurrencyCode; limit?: number; cursor?: string } = {},
  ): Promise<CarMonthsAnswer> {
    const own = q.own ?? false;
    const seen = await this.repo.userStamp(p.userId, own);
    const target = q.currency ?? seen?.currency ?? this.instanceCurrency;
    const money = atRates(target, await this.ratesTo(target));
    const page = carMonthsPage(q);
    const rows = () => this.repo.userPageJson({ userId: p.userId, own }, page, money);
    if (!seen) return rows();
    const kept = `user|${p.userId}|${own}|${page.limit}|${q.cursor ?? ''}|${keyOf(money)}`;
    // The stamp was read before the rows: an answer kept under it is never older than it says.
    return this.answers.through(kept, seen.stamp, rows);
  }

  /**
   * A page of every vehicle of every owner by month between two months (YYYY-MM, both inclusive),
   * as `user` pages the caller's, in `currency` (default: the instance's).
   */
  async admin(q: {
    start?: string;
    end?: string;
    currency?: CurrencyCode;
    limit?: number;
    cursor?: string;
  }): Promise<CarMonthsAnswer> {
    const target = q.currency ?? this.instanceCurrency;
    const money = atRates(target, await this.ratesTo(target));
    // Read before the rows, as the user's stamp is: an answer kept under it is never older than it says.
    const stamp = await this.repo.generation();
    const page = carMonthsPage(q);
    const kept = `admin|${q.start ?? ''}|${q.end ?? ''}|${page.limit}|${q.cursor ?? ''}|${keyOf(money)}`;
    return this.answers.through(kept, stamp, () =>
      this.repo.rangePageJson(
        { ...page, from: q.start && `${q.start}-01`, until: q.end && nextMonth(q.end) },
        money,
      ),
    );
  }

  /**
   * Every vehicle's costs added up by month (GlobalMonth[] as JSON text), between two months
   * (YYYY-MM, both inclusive), in `currency` (default: the instance's).
   */
  async adminMonths(range: { start?: string; end?: string; currency?: CurrencyCode }): Promise<string> {
    const target = range.currency ?? this.instanceCurrency;
    return this.repo.globalMonthsJson(
      { from: range.start && `${range.start}-01`, until: range.end && nextMonth(range.end) },
      { currency: target, rates: await this.ratesTo(target) },
    );
  }
}

/** A page of car-months as JSON text, and the cursor of the next (null: the last). */
type CarMonthsAnswer = { json: string | Buffer; next: string | null };

/** The repo's page of a query's `limit` (without it, CAR_MONTHS_CAP) and `cursor` (`YYYY-MM_<vehicle id>`). */
function carMonthsPage(q: { limit?: number; cursor?: string }): CarMonthsPage {
  const [month, vehicle] = q.cursor?.split('_') ?? [];
  return {
    limit: q.limit ?? CAR_MONTHS_CAP,
    after: month ? { month: `${month}-01`, vehicleId: Number(vehicle) } : undefined,
  };
}

/**
 * The same answer money objects while the rates are the same (the fx module keeps the day's rates a
 * minute): the repo's parameters and the split's key are worked out once per money, not per read.
 */
const ownCurrency = new Map<CurrencyCode, AnswerMoney>();
const inOwnCurrency = (currency: CurrencyCode): AnswerMoney => {
  let money = ownCurrency.get(currency);
  if (!money) {
    money = { currency, rates: new Map([[currency, 1]]) };
    ownCurrency.set(currency, money);
  }
  return money;
};
const atRatesKept = new WeakMap<ReadonlyMap<CurrencyCode, number>, Map<CurrencyCode, AnswerMoney>>();
function atRates(currency: CurrencyCode, rates: ReadonlyMap<CurrencyCode, number>): AnswerMoney {
  const byCurrency = atRatesKept.get(rates) ?? new Map<CurrencyCode, AnswerMoney>();
  atRatesKept.set(rates, byCurrency);
  let money = byCurrency.get(currency);
  if (!money) {
    money = { currency, rates };
    byCurrency.set(currency, money);
  }
  return money;
}
/** The money's currency and rates as text (byFuelJson's key). */
const keyOf = (money: AnswerMoney) => `${money.currency}|${ratesKey(money.rates)}`;

/** byFuelJson's answer worked out: the whole time, or by year or month ('*': a period without fills). */
function splitJson(kind: 'monthly' | 'yearly' | 'total', data: FuelFills, money: AnswerMoney): string {
  if (kind === 'total') return JSON.stringify(fuelSplit(data, money, {}));
  const periods: Record<string, FuelSplit[]> = { '*': fuelSplit(data, money, { from: '9', to: '0' }) };
  const length = kind === 'yearly' ? 4 : 7;
  Object.assign(
    periods,
    fuelSplitsBy(data, money, (date) => date.slice(0, length)),
  );
  return JSON.stringify(periods);
}

/**
 * Each of the vehicle's fuels over the fills dated in `range` (fuelFigures) with their cost in the
 * answer's currency, counted as the monthly rollup counts fuel: each month's sum in each currency at
 * the stored rates, then at the answer's rate to the cent (so the fuels' costs add up to
 * totalFuelCost, give or take a cent of rounding when a rate is applied).
 */
function fuelSplit(data: FuelFills, money: AnswerMoney, range: { from?: string; to?: string }): FuelSplit[] {
  const inRange = (date: string) =>
    (range.from === undefined || date >= range.from) && (range.to === undefined || date <= range.to);
  const sums = new Map<string, { fuel: FuelType; currency: CurrencyCode; cents: number }>();
  for (const f of data.fills) {
    if (!inRange(f.date)) continue;
    const fuel = fuelOfFill(f, data);
    const key = `${fuel}|${f.date.slice(0, 7)}|${f.currency}`;
    const sum = sums.get(key) ?? { fuel, currency: f.currency, cents: 0 };
    sum.cents += Math.round(f.cost * 100);
    sums.set(key, sum);
  }
  const cents = new Map<FuelType, number>();
  for (const s of sums.values())
    cents.set(s.fuel, (cents.get(s.fuel) ?? 0) + Math.round(s.cents * (money.rates.get(s.currency) ?? 1)));
  return fuelFigures(data.fills, data, range).map((f) => ({
    fuelType: f.fuelType,
    unit: f.unit,
    quantity: f.quantity,
    cost: (cents.get(f.fuelType) ?? 0) / 100,
    fills: f.fills,
    per100km: f.per100km,
  }));
}

/**
 * fuelSplit for every period at once ('YYYY' or 'YYYY-MM' from a fill's date), the chains worked
 * out once (fuelFiguresBy): each month's sum in each currency at the answer's rate to the cent.
 */
function fuelSplitsBy(
  data: FuelFills,
  money: AnswerMoney,
  periodOf: (date: string) => string,
): Record<string, FuelSplit[]> {
  const sums = new Map<string, { period: string; fuel: FuelType; currency: CurrencyCode; cents: number }>();
  for (const f of data.fills) {
    const fuel = fuelOfFill(f, data);
    const period = periodOf(f.date);
    const key = `${fuel}|${f.date.slice(0, 7)}|${f.currency}`;
    const sum = sums.get(key) ?? { period, fuel, currency: f.currency, cents: 0 };
    sum.cents += Math.round(f.cost * 100);
    sums.set(key, sum);
  }
  const cents = new Map<string, number>();
  for (const s of sums.values()) {
    const key = `${s.period}|${s.fuel}`;
    cents.set(key, (cents.get(key) ?? 0) + Math.round(s.cents * (money.rates.get(s.currency) ?? 1)));
  }
  const out: Record<string, FuelSplit[]> = {};
  for (const [period, figures] of fuelFiguresBy(data.fills, data, periodOf))
    out[period] = figures.map((f) => ({
      fuelType: f.fuelType,
      unit: f.unit,
      quantity: f.quantity,
      cost: (cents.get(`${period}|${f.fuelType}`) ?? 0) / 100,
      fills: f.fills,
      per100km: f.per100km,
    }));
  return out;
}

/** First day of the month after 'YYYY-MM'. */
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}
