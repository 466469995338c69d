/** The room's entry point: a receipt's bytes → a checked draft of its record (preview), warnings in the user's language. */
import type {
  CurrencyCode,
  InspectionOcrPreview,
  Language,
  OcrKind,
  OcrPreview,
  OcrWarning,
} from '@evdra/domain';
import { AppError } from '../lib/errors.js';
import type { Principal } from '../modules/auth/auth.service.js';
import { REREAD_BUDGET_MS, rereadCurrency, WEAK_CURRENCY } from './currency-reread.js';
import type { RawWarning } from './draft.js';
import { extract } from './extract.js';
import { type PrintedRate, printedRates, receiptRate } from './fields/exchange-rate.js';
import { readInspectionExpiry } from './kinds/inspection.js';
import { warningMessage } from './messages.js';
import { type ReceiptText, readReceipt } from './read-receipt.js';
import { detectLanguage } from './text/language.js';
import { OcrBusyError, type OcrEngine } from './worker-pool.js';

type Deps = {
  pool: OcrEngine;
  /** The vehicle if the caller may reach it (404 otherwise), with its last known odometer. */
  vehicle: (p: Principal, vehicleId: number) => Promise<{ odometer: number }>;
  /** The user's saved language, for the warnings. */
  language: (userId: number) => Promise<Language>;
  /** The user's own currency: what a receipt that prints none is proposed in. */
  currency: (userId: number) => Promise<CurrencyCode>;
  /**
   * Reads again the row of a photo that holds the amount paid when the engine read no currency (or
   * a weak one): tesseract, whose model has the € and £ PaddleOCR's lacks. None: not read again.
   */
  currencyReader?: OcrEngine;
  /** How long a preview waits for that re-read at most (ms). */
  rereadBudgetMs?: number;
  /** The day's reference rate (units of `to` per `from`), which orients and checks a printed rate. */
  referenceRate?: (from: CurrencyCode, to: CurrencyCode, date: string) => Promise<number | undefined>;
  now: () => Date;
  log?: { warn: (o: object, msg: string) => void };
};

/** The field each kind reads the amount paid into (whose row holds the receipt's currency). */
const PAID_FIELD: Record<OcrKind, string> = {
  fuel: 'fuelPrice',
  expense: 'amount',
  revision: 'price',
  insurance: 'price',
};

/** Receipt → checked draft of a record. Saves nothing: the user confirms through the normal create. */
export class OcrService {
  constructor(private readonly d: Deps) {}

  /** An ITP / ITV certificate's expiry (issue 52) for the document form; saves nothing. */
  async inspection(p: Principal, vehicleId: number, bytes: Buffer): Promise<InspectionOcrPreview> {
    await this.d.vehicle(p, vehicleId);
    const userLang = await this.d.language(p.userId);
    const read = await this.read(bytes);
    const { expiresOn, confidence } = readInspectionExpiry(read.lines);
    return {
      expiresOn,
      confidence: { expiresOn: confidence },
      language: detectLanguage(read.lines.map((l) => l.norm).join('\n'), userLang),
      source: read.source,
    };
  }

  async preview(p: Principal, kind: OcrKind, vehicleId: number, bytes: Buffer): Promise<OcrPreview> {
    const vehicle = await this.d.vehicle(p, vehicleId);
    const userLang = await this.d.language(p.userId);
    // The re-reader's start (once, or after it was recycled) overlaps the first reading, not the preview.
    this.d.currencyReader?.warmUp().catch(() => undefined);
    const read = await this.read(bytes);
    const { fields, confidence, warnings } = extract(kind, read.lines);
    await this.rereadCurrency(read, fields, confidence, fields[PAID_FIELD[kind]]);
    const today = this.d.now().toISOString().slice(0, 10);
    for (const f of ['date', 'startDate'] as const) {
      const v = fields[f];
      if (typeof v === 'string' && v > today)
        warnings.push({ field: f, code: 'DATE_IN_FUTURE', params: { date: v } });
    }
    const odoField = kind === 'fuel' ? 'odometer' : kind === 'revision' ? 'km' : undefined;
    const odo = odoField ? fields[odoField] : null;
    if (odoField && typeof odo === 'number' && odo < vehicle.odometer)
      warnings.push({
        field: odoField,
        code: 'ODOMETER_BELOW_LAST',
        params: { value: odo, last: vehicle.odometer },
      });
    if (
      kind === 'insurance' &&
      typeof fields.startDate === 'string' &&
      typeof fields.endDate === 'string' &&
      fields.endDate < fields.startDate
    )
      warnings.push({ field: 'endDate', code: 'END_BEFORE_START' });
    if (
      Object.entries(fields).every(
        ([k, v]) => v === null || k === 'reminderEnabled' || k === 'expenseType' || k === 'currency',
      )
    )
      warnings.push({ field: '', code: 'NOTHING_FOUND' });
    // The user's currency is looked up only when needed: no currency read, or a rate printed.
    const printed = printedRates(read.lines);
    const userCurrency =
      fields.currency === null || printed.length ? await this.d.currency(p.userId) : undefined;
    // No currency printed: the user's own, as a record typed by hand (confidence 0: nothing was read).
    if (fields.currency === null) {
      fields.currency = userCurrency ?? null;
      confidence.currency = 0;
    }
    const day =
      typeof fields.date === 'string'
        ? fields.date
        : typeof fields.startDate === 'string'
          ? fields.startDate
          : today;
    const rate =
      userCurrency && printed.length
        ? await this.printedRate(printed, fields.currency as CurrencyCode, userCurrency, day)
        : undefined;
    const all = read.lines.map((l) => l.norm).join('\n');
    const message = (w: RawWarning): OcrWarning => ({
      field: w.field,
      code: w.code,
      message: warningMessage(userLang, w),
    });
    if (rate) confidence.exchangeRate = Math.round(rate.conf * 100) / 100;
    return {
      ...(fields as object),
      ...(rate ? { exchangeRate: rate.rate, rateSource: 'RECEIPT' } : {}),
      confidence,
      warnings: warnings.map(message),
      language: detectLanguage(all, userLang),
      source: read.source,
    } as OcrPreview;
  }

  /**
   * A photo's currency that PaddleOCR could not read (no € or £ in its character set): the row with
   * the amount paid read again, within the budget, when no currency or only a weak one was read. A
   * receipt whose currency was read plainly is not read again (no slower).
   */
  private async rereadCurrency(
    read: ReceiptText,
    fields: Record<string, unknown>,
    confidence: Record<string, number>,
    paid: unknown,
  ) {
    const reader = this.d.currencyReader;
    const known = fields.currency === null ? 0 : (confidence.currency ?? 0);
    if (!reader || !read.page || known >= WEAK_CURRENCY) return;
    const again = await rereadCurrency({
      lines: read.lines,
      paid: typeof paid === 'number' ? paid : null,
      page: read.page,
      reader,
      budgetMs: this.d.rereadBudgetMs ?? REREAD_BUDGET_MS,
    }).catch((err: unknown) => {
      this.d.log?.warn({ err }, 'Currency re-read failed');
      return undefined;
    });
    if (again && again.conf > known) {
      fields.currency = again.value;
      confidence.currency = Math.round(again.conf * 100) / 100;
    }
  }

  /**
   * The exchange rate the receipt prints to the user's currency (a card slip abroad), when the
   * receipt is in another currency; the day's reference rate orients a rate printed without its
   * currencies and turns away a misread one.
   */
  private async printedRate(printed: PrintedRate[], receipt: CurrencyCode, user: CurrencyCode, day: string) {
    if (receipt === user) return undefined;
    const reference = await this.d.referenceRate?.(receipt, user, day).catch(() => undefined);
    return receiptRate(printed, receipt, user, reference);
  }

  /** The text lines of a photo or PDF (429 when the OCR queue is full, 422 when unreadable). */
  private async read(bytes: Buffer) {
    try {
      return await readReceipt(bytes, this.d.pool);
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof OcrBusyError)
        throw new AppError(
          429,
          'OCR_BUSY',
          'Too many receipts are being read right now. Try again in a minute.',
          undefined,
          {
            'retry-after': '30',
          },
        );
      this.d.log?.warn({ err }, 'OCR failed');
      throw new AppError(422, 'UNREADABLE_RECEIPT', 'The receipt could not be read.');
    }
  }
}
