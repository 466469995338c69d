import {
  addDays,
  type CurrencyCode,
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

  /** Stores the ECB's published rates; returns how many were new or changed. */
  async storeEcbRates(rates: readonly EcbRate[]): Promise<number> {
    return this.repo.upsert(rates.map((r) => ({ ...r, source: 'ECB' as const })));
  }
}
