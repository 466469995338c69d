import {
  addDays,
  CURRENCIES,
  type CurrencyCode,
  crossRate,
  type DatedRate,
  type EuroRate,
  exchangeRateOn,
  FX_BASE_CURRENCY,
  FX_MAX_CARRY_DAYS,
} from '@evdra/domain';
import type { EcbRate } from './ecb-feed.js';
import type { FxRepo } from './fx.repo.js';

export type ExchangeRate = DatedRate & { from: CurrencyCode; to: CurrencyCode };

/** Exchange rates on a day, from the stored daily reference rates (crossed through the euro). */
export class FxService {
  constructor(private readonly repo: FxRepo) {}

  /**
   * Units of `to` for one `from` on `date`, or on the previous business day that has a rate
   * (`carried`); undefined when either currency has none in the FX_MAX_CARRY_DAYS before it. MDL has
   * a rate only where a MANUAL one is stored (the ECB publishes none).
   */
  async rate(from: CurrencyCode, to: CurrencyCode, date: string): Promise<ExchangeRate | undefined> {
    // EUR is 1 on every day, and a currency in itself too: only the others are looked up.
    const needed = from === to ? [] : [from, to].filter((c) => c !== FX_BASE_CURRENCY);
    const series = needed.length
      ? await this.repo.euroRates(needed, addDays(date, -FX_MAX_CARRY_DAYS), date)
      : new Map<string, EuroRate[]>();
    const rate = exchangeRateOn(
      { from, to },
      { from: series.get(from) ?? [], to: series.get(to) ?? [] },
      date,
    );
    return rate && { from, to, ...rate };
  }

  /**
   * Units of `to` for one unit of each currency that has a rate, at the latest rate known on or before
   * `until` (the day's rate, or the last one stored): what a total in one currency is worth in another
   * today. `to` itself is 1; a currency without any rate is left out.
   */
  async latestRatesTo(to: CurrencyCode, until: string): Promise<Map<CurrencyCode, number>> {
    const latest = await this.repo.latestEuroRates(until);
    const perEuro = (c: CurrencyCode) => (c === FX_BASE_CURRENCY ? 1 : latest.get(c)?.rate);
    const rates = new Map<CurrencyCode, number>([[to, 1]]);
    const toPerEuro = perEuro(to);
    if (toPerEuro === undefined) return rates;
    for (const from of CURRENCIES) {
      const fromPerEuro = perEuro(from);
      if (from !== to && fromPerEuro !== undefined) rates.set(from, crossRate(fromPerEuro, toPerEuro));
    }
    return rates;
  }

  /** Stores the ECB's published rates; returns how many were new or changed. */
  async storeEcbRates(rates: readonly EcbRate[]): Promise<number> {
    return this.repo.upsert(rates.map((r) => ({ ...r, source: 'ECB' as const })));
  }
}

/** How long the day's rates to a currency are reused: a rate changes once a day (a MANUAL one rarely). */
const LATEST_RATES_TTL_MS = 60_000;

/**
 * The day's rates to a currency (FxService.latestRatesTo on `now`'s day), kept for a minute per
 * currency: every analytics read converts, and the rates behind it change once a day.
 */
export function latestRatesTo(service: FxService, now: () => Date) {
  const kept = new Map<CurrencyCode, { until: number; rates: Promise<Map<CurrencyCode, number>> }>();
  return (to: CurrencyCode): Promise<Map<CurrencyCode, number>> => {
    const at = now().getTime();
    const hit = kept.get(to);
    if (hit && hit.until > at) return hit.rates;
    const rates = service.latestRatesTo(to, now().toISOString().slice(0, 10));
    kept.set(to, { until: at + LATEST_RATES_TTL_MS, rates });
    // A failed read is not kept.
    rates.catch(() => kept.delete(to));
    return rates;
  };
}
