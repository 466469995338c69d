import { type EuroRate, FX_BASE_CURRENCY, type ReferenceRateSource } from '@evdra/domain';
import { and, desc, eq, gt, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { fxRates } from '../../db/schema.js';

export type NewEuroRate = { currency: string; date: string; rate: number; source: ReferenceRateSource };

// A statement's parameters stay well under PostgreSQL's 65,535 (4 per row).
const BATCH = 1_000;

/** The table of daily reference rates against the euro: the only code that reads or writes it. */
export class FxRepo {
  constructor(private readonly db: Executor) {}

  /**
   * Writes each day's rate, replacing a different rate for the same currency, day and source (the
   * ECB corrects a published rate now and then). Returns how many rows were new or changed.
   */
  async upsert(rows: readonly NewEuroRate[]): Promise<number> {
    let changed = 0;
    for (let i = 0; i < rows.length; i += BATCH) {
      const part = rows.slice(i, i + BATCH).map((r) => ({ ...r, base: FX_BASE_CURRENCY }));
      const written = await this.db
        .insert(fxRates)
        .values(part)
        .onConflictDoUpdate({
          target: [fxRates.base, fxRates.currency, fxRates.date, fxRates.source],
          set: { rate: sql`excluded.rate`, updatedAt: sql`now()` },
          // An unchanged rate is not rewritten: a daily fetch of 90 days touches only the new day.
          setWhere: ne(fxRates.rate, sql`excluded.rate`),
        })
        .returning({ currency: fxRates.currency });
      changed += written.length;
    }
    return changed;
  }

  /**
   * Each currency's latest euro rate on or before `until` (the ECB's over a MANUAL one of the same day):
   * one query for every currency, for totals converted at the day's rate.
   */
  async latestEuroRates(until: string): Promise<Map<string, EuroRate>> {
    const rows = await this.db
      .selectDistinctOn([fxRates.currency], {
        currency: fxRates.currency,
        date: fxRates.date,
        rate: fxRates.rate,
        source: fxRates.source,
      })
      .from(fxRates)
      .where(and(eq(fxRates.base, FX_BASE_CURRENCY), lte(fxRates.date, until), gt(fxRates.rate, 0)))
      .orderBy(fxRates.currency, desc(fxRates.date), sql`${fxRates.source} = 'ECB' desc`);
    return new Map(
      rows.map((r) => [r.currency, { date: r.date, rate: r.rate, source: r.source as ReferenceRateSource }]),
    );
  }

  /** The euro rates of `currencies` from `from` to `until` (inclusive), any order. */
  async euroRates(
    currencies: readonly string[],
    from: string,
    until: string,
  ): Promise<Map<string, EuroRate[]>> {
    const rows = await this.db
      .select({ currency: fxRates.currency, date: fxRates.date, rate: fxRates.rate, source: fxRates.source })
      .from(fxRates)
      .where(
        and(
          eq(fxRates.base, FX_BASE_CURRENCY),
          inArray(fxRates.currency, [...currencies]),
          gte(fxRates.date, from),
          lte(fxRates.date, until),
        ),
      );
    const byCurrency = new Map<string, EuroRate[]>(currencies.map((c) => [c, []]));
    for (const r of rows) {
      byCurrency
        .get(r.currency)
        ?.push({ date: r.date, rate: r.rate, source: r.source as ReferenceRateSource });
    }
    return byCurrency;
  }
}
