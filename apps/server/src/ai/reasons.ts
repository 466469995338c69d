import { CURRENCIES, type CurrencyCode, type Language } from '@evdra/domain';
import { type ReaderUnits, readerFormat } from '../lib/reader-format.js';
import type { EvaluationBasis } from './basis.js';
import { basisInCurrency, reasonText } from './evaluate.js';

/** Who reads a vehicle's AI reason: their saved language, currency and units. */
export type ReasonReader = { language: Language; currency: CurrencyCode } & ReaderUnits;
/** Units of `to` for one unit of each currency with a known rate today (FxService.latestRatesTo). */
export type RatesTo = (to: CurrencyCode) => Promise<ReadonlyMap<CurrencyCode, number>>;
/** A row that carries a vehicle's AI reason: the stored text and, for a built-in evaluation, its basis. */
export type ReasonRow = { aiScoreReason: string | null; aiScoreBasis: unknown };

const LANGUAGES: readonly string[] = ['en', 'ro', 'es'];
const KEYS: readonly string[] = [
  'age',
  'km',
  'service',
  'oneService',
  'noService',
  'consumption',
  'insurance',
  'costPerKm',
];

/** A stored basis this version can write (anything else: the stored text is read as it is). */
export function isBasis(x: unknown): x is EvaluationBasis {
  if (typeof x !== 'object' || x === null) return false;
  const b = x as Partial<EvaluationBasis>;
  return (
    b.v === 1 &&
    typeof b.currency === 'string' &&
    (CURRENCIES as readonly string[]).includes(b.currency) &&
    typeof b.fuelType === 'string' &&
    Array.isArray(b.factors) &&
    b.factors.every((f) => typeof f === 'object' && f !== null && KEYS.includes(f.key)) &&
    (b.few === null || typeof b.few === 'number')
  );
}

/** Whether writing the basis for a reader in `currency` needs a rate: money in another currency. */
const needsRate = (basis: EvaluationBasis, currency: CurrencyCode) =>
  basis.currency !== currency && basis.factors.some((f) => f.key === 'costPerKm');

/**
 * A vehicle's AI reason as one reader reads it (issue 50): a built-in evaluation's basis written in
 * their language and units, its money converted to their currency at the day's rate (`rates`, as the
 * AI facts convert for a reader: FactsRepo) or, with no rate known, left in the basis's currency and
 * labelled as such (never relabelled); a reason without a basis (a language model's, or one written
 * before the basis was kept) as stored.
 */
export function readReason(
  stored: string | null,
  basis: unknown,
  reader: ReasonReader,
  rates?: ReadonlyMap<CurrencyCode, number>,
): string | null {
  if (!isBasis(basis) || !LANGUAGES.includes(reader.language)) return stored;
  const rate = basis.currency === reader.currency ? 1 : rates?.get(basis.currency);
  const inReaders = rate !== undefined && rate !== 1 ? basisInCurrency(basis, reader.currency, rate) : basis;
  const currency = rate === undefined ? basis.currency : reader.currency;
  return reasonText(inReaders, reader.language, readerFormat(reader.language, currency, reader));
}

type Deps = {
  /** The reader's saved settings (undefined: no such user). */
  reader: (userId: number) => Promise<ReasonReader | undefined>;
  ratesTo: RatesTo;
};

/**
 * Writes the AI reasons of vehicle rows for their reader. Costs nothing while no row has a basis; else
 * one read of the reader's settings and, only when some basis's money is in another currency than
 * theirs, one read of the day's rates: never a statement per vehicle.
 */
export class AiReasons {
  constructor(private readonly d: Deps) {}

  /** The rows with aiScoreReason written for `readerId` (the same array when nothing changes). */
  async forReader<T extends ReasonRow>(readerId: number, rows: T[]): Promise<T[]> {
    if (!rows.some((r) => isBasis(r.aiScoreBasis))) return rows;
    const reader = await this.d.reader(readerId);
    if (!reader) return rows;
    return this.with(reader, rows);
  }

  /** As forReader, with the reader's settings already read. */
  async with<T extends ReasonRow>(reader: ReasonReader, rows: T[]): Promise<T[]> {
    const rates = rows.some((r) => isBasis(r.aiScoreBasis) && needsRate(r.aiScoreBasis, reader.currency))
      ? await this.d.ratesTo(reader.currency)
      : undefined;
    return rows.map((r) =>
      isBasis(r.aiScoreBasis)
        ? { ...r, aiScoreReason: readReason(r.aiScoreReason, r.aiScoreBasis, reader, rates) }
        : r,
    );
  }
}
