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
import type { RawWarning } from './draft.js';
import { extract } from './extract.js';
import { readInspectionExpiry } from './kinds/inspection.js';
import { warningMessage } from './messages.js';
import { readReceipt } from './read-receipt.js';
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
  now: () => Date;
  log?: { warn: (o: object, msg: string) => void };
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
    const read = await this.read(bytes);
    const { fields, confidence, warnings } = extract(kind, read.lines);
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
    // No currency printed: the user's own, as a record typed by hand (confidence 0: nothing was read).
    if (fields.currency === null) {
      fields.currency = await this.d.currency(p.userId);
      confidence.currency = 0;
    }
    const all = read.lines.map((l) => l.norm).join('\n');
    const message = (w: RawWarning): OcrWarning => ({
      field: w.field,
      code: w.code,
      message: warningMessage(userLang, w),
    });
    return {
      ...(fields as object),
      confidence,
      warnings: warnings.map(message),
      language: detectLanguage(all, userLang),
      source: read.source,
    } as OcrPreview;
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
