import { createHash, randomBytes } from 'node:crypto';
import {
  type CurrencyCode,
  EXISTING_USER_MONEY_AND_UNITS,
  type Language,
  type MoneyAndUnits,
  type ReportLink,
  type ReportVerification,
} from '@evdra/domain';
import { isBasis, readReason } from '../../ai/reasons.js';
import type { FileStore } from '../../files/file-store.js';
import { renderPdfFirstPage } from '../../files/pdf-render-thread.js';
import { ratesKey } from '../../lib/answer-money.js';
import { notFound } from '../../lib/errors.js';
import { VersionedCache } from '../../lib/versioned-cache.js';
import type { AnalyticsService } from '../analytics/analytics.service.js';
import type { Principal } from '../auth/auth.service.js';
import type { VehiclesService } from '../vehicles/vehicles.service.js';
import { buildModel, type ReportModel, type ReportPage } from './report-model.js';
import { renderPdf } from './report-pdf.js';
import type { LinkRow, ReportRecords, ReportStamp, ReportsRepo } from './reports.repo.js';

const DAY = 86_400_000;
/** A listing's link lives as long as the listing (it is revoked with it); this is only its ceiling. */
const LISTING_LINK_DAYS = 3650;
/** A PDF document's first page in the report: ~150 dpi on an A4 page, small print still legible. */
const REPORT_PAGE_MAX_SIDE = 1600;
// Crockford base32: no I, L, O, U, so a code read off paper is typed back without confusion.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** How many bytes of drawn reports are kept to hand out again (a twenty-year car's is ~100 KB). */
const PDF_BYTES_KEPT = 32 * 1024 * 1024;

/** A stream's bytes, once it has ended. */
async function buffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A fresh code `ABCD-EFGH-JK`: 10 symbols, 50 random bits. */
export function newCode(): string {
  const bytes = randomBytes(10);
  const s = [...bytes].map((b) => ALPHABET[b & 31]).join('');
  return `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8)}`;
}

/**
 * The code of a report's content: the same car, records, costs and day give the same code, so
 * viewing or downloading a report again does not issue a new one (the table grows with the data,
 * not with page views). 50 bits of SHA-256, in the printed form.
 */
export function contentCode(vehicleId: number, day: string, content: unknown): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([vehicleId, day, content]))
    .digest();
  const s = [...digest.subarray(0, 10)].map((b) => ALPHABET[b & 31]).join('');
  return `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8)}`;
}

/** A code as typed (any case, with or without dashes, O for 0, I or L for 1) in its printed form. */
export function normalizeCode(input: string): string | undefined {
  const s = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (!/^[0-9A-HJKMNP-TV-Z]{10}$/.test(s)) return undefined;
  return `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8)}`;
}

type Deps = {
  repo: ReportsRepo;
  analytics: Pick<AnalyticsService, 'vehicleCosts'>;
  vehicles: Pick<VehiclesService, 'owned'>;
  files: FileStore;
  publicUrl: string;
  now: () => Date;
  /**
   * A signed-in reader's currency and units (issue 50; undefined: no such user). Without it every
   * report is printed in its owner's, as a share link's is.
   */
  reader?: (userId: number) => Promise<MoneyAndUnits | undefined>;
  /**
   * The day's rates to a currency, as the analytics convert at (kept a minute per currency): a
   * kept report is drawn again once they change (undefined: reports are drawn on every request).
   */
  ratesTo?: (to: CurrencyCode) => Promise<Map<CurrencyCode, number>>;
};

/**
 * Vehicle history reports: the PDF (who may see the car), share links (the owner), the public page's
 * report (an open link), and the verification of a printed report's code.
 */
export class ReportsService {
  constructor(private readonly d: Deps) {}

  /**
   * The PDF of a car the caller may see (404 otherwise), already ended: pipe it to the response.
   * `pages`: the owner's choice to append each document's first page (issue 52); from anyone else
   * (an editor or viewer of a shared car) it is ignored: the papers' pages are the owner's to show.
   * In the caller's currency and units (issue 50), its verification code the owner's report's.
   */
  async pdf(p: Principal, vehicleId: number, lang: Language, options: { pages?: boolean } = {}) {
    // The caller's access comes with the report's stamp, in one round trip (a kept report is one).
    const stamp = await this.d.repo.stamp(vehicleId, p.userId, p.role === 'ADMIN' ? null : p.userId);
    if (!stamp?.access) throw notFound('Vehicle');
    return this.render(vehicleId, lang, stamp, options.pages === true && stamp.access === 'OWNER', p.userId);
  }

  /** The report of an open link, for the public page (undefined when expired, revoked or unknown). */
  async shared(token: string, lang: Language): Promise<{ model: ReportModel; link: LinkRow } | undefined> {
    const link = await this.d.repo.openLink(token, this.d.now());
    if (!link) return undefined;
    const model = await this.model(link.vehicleId, lang, false);
    return model && { model, link };
  }

  /** The PDF of an open link. */
  async sharedPdf(token: string, lang: Language) {
    const link = await this.d.repo.openLink(token, this.d.now());
    if (!link) throw notFound('Report');
    const stamp = await this.d.repo.stamp(link.vehicleId, 0, null);
    if (!stamp) throw notFound('Vehicle');
    return this.render(link.vehicleId, lang, stamp);
  }

  /** The photo of an open link's car (the public page cannot reach the signed-in file route). */
  async sharedPhoto(token: string): Promise<Buffer | undefined> {
    const link = await this.d.repo.openLink(token, this.d.now());
    if (!link) return undefined;
    const records = await this.d.repo.read(link.vehicleId);
    return records?.vehicle.photoId ? this.d.files.get(records.vehicle.photoId) : undefined;
  }

  async createLink(p: Principal, vehicleId: number, expiresInDays: number) {
    await this.d.vehicles.owned(p, vehicleId);
    const row = await this.d.repo.insertLink({
      token: randomBytes(32).toString('base64url'),
      vehicleId,
      createdBy: p.userId,
      expiresAt: new Date(this.d.now().getTime() + expiresInDays * DAY),
    });
    return { url: this.url(row.token), token: row.token, expiresAt: row.expiresAt.toISOString() };
  }

  async links(p: Principal, vehicleId: number): Promise<ReportLink[]> {
    await this.d.vehicles.owned(p, vehicleId);
    const rows = await this.d.repo.links(vehicleId, this.d.now());
    return rows.map((r) => ({
      url: this.url(r.token),
      token: r.token,
      expiresAt: r.expiresAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      listingId: r.listingId,
    }));
  }

  async revoke(p: Principal, vehicleId: number, token: string): Promise<void> {
    await this.d.vehicles.owned(p, vehicleId);
    if (!(await this.d.repo.revoke(vehicleId, token, this.d.now()))) throw notFound('Report link');
  }

  /**
   * The link a new listing carries (the marketplace calls it once the listing is written); it ends
   * with the listing (database triggers revoke it when the listing is deleted or the car transferred).
   */
  async listingLink(vehicleId: number, sellerId: number, listingId: number): Promise<string> {
    const row = await this.d.repo.insertLink({
      token: randomBytes(32).toString('base64url'),
      vehicleId,
      createdBy: sellerId,
      listingId,
      expiresAt: new Date(this.d.now().getTime() + LISTING_LINK_DAYS * DAY),
    });
    return this.url(row.token);
  }

  /** What a code (as typed) was issued for; undefined when no report has it. */
  async check(input: string): Promise<ReportVerification | undefined> {
    const code = normalizeCode(input);
    const row = code ? await this.d.repo.code(code) : undefined;
    if (!row) return undefined;
    return {
      genuine: true,
      code: row.code,
      vehicle: {
        make: row.make,
        model: row.model,
        year: row.year,
        registrationNumber: row.registrationNumber,
      },
      generatedAt: row.generatedAt.toISOString(),
      odometer: row.odometer,
    };
  }

  /**
   * The verification code of this content today: the one already issued (with its first issue
   * time, which the report then shows, so paper and the verification page agree), else a new one.
   */
  private async issue(vehicleId: number, records: ReportRecords, costs: unknown) {
    const now = this.d.now();
    const v = records.vehicle;
    const row = {
      // The owner's currency and units only shape how the figures are printed (the costs already
      // change with the currency): left out, a report's code is the one it had before issue 50.
      // The AI reason's basis and rate are how its text is written, not what it says: left out too.
      code: contentCode(vehicleId, now.toISOString().slice(0, 10), [
        {
          ...records,
          owner: undefined,
          vehicle: { ...v, aiScoreBasis: undefined, aiScoreRate: undefined },
        },
        costs,
      ]),
      vehicleId,
      make: v.make,
      model: v.model,
      year: v.year,
      registrationNumber: v.registrationNumber,
      odometer: v.odometer,
      generatedAt: now,
    };
    const issued = await this.d.repo.issueCode(row);
    // 50 bits: a clash with another car's code is all but impossible; if it happens, a random one.
    return issued.vehicleId === vehicleId ? issued : this.d.repo.issueCode({ ...row, code: newCode() });
  }

  url(token: string): string {
    return `${this.d.publicUrl}/r/${token}`;
  }

  /** The human page the printed report points to (the JSON API is /api/report/verify/{code}). */
  verifyUrl(code: string): string {
    return `${this.d.publicUrl}/v/${code}`;
  }

  /**
   * The PDF's bytes; `readerId`: a signed-in reader's (in their currency and units), else the owner's.
   * Drawing a twenty-year car's takes 1.5-3 s of CPU and reading its model ~20 ms (issue 54), and a
   * listing's report is opened by every interested buyer: each reader's last PDF of a car is kept
   * with what it was drawn from (ReportsRepo.stamp: the car, its records, people and papers; the
   * rates; the day), and sent again while that is the same, without reading the records.
   */
  private async render(
    vehicleId: number,
    lang: Language,
    stamp: ReportStamp,
    pages = false,
    readerId?: number,
  ) {
    // The stamp is read before the model: a write in between leaves a newer PDF under the older
    // version, which the next read (seeing the newer one) replaces; never an older PDF under a newer one.
    const version = await this.version(stamp);
    if (version === undefined) return this.draw(vehicleId, lang, pages, readerId);
    const key = `${vehicleId}|${readerId ?? 'link'}|${lang}|${pages}`;
    const kept = this.drawn.get(key, version);
    if (kept) return kept;
    // Buyers opening a new listing's report at once wait for one drawing, not one each.
    const flight = `${key}|${version}`;
    let drawing = this.drawing.get(flight);
    if (!drawing) {
      drawing = this.draw(vehicleId, lang, pages, readerId)
        .then((drawn) => {
          this.drawn.set(key, version, drawn);
          return drawn;
        })
        .finally(() => this.drawing.delete(flight));
      this.drawing.set(flight, drawing);
    }
    return drawing;
  }

  private readonly drawing = new Map<string, Promise<{ pdf: Buffer; filename: string }>>();

  private async draw(vehicleId: number, lang: Language, pages: boolean, readerId?: number) {
    const model = await this.model(vehicleId, lang, true, readerId);
    if (!model) throw notFound('Vehicle');
    if (pages) model.pages = await this.firstPages(vehicleId);
    const v = model.vehicle;
    const filename = `report-${v.make}-${v.model}-${v.year}`.replace(/[^A-Za-z0-9-]+/g, '-');
    return {
      pdf: await buffer(await renderPdf(model, this.verifyUrl(model.code))),
      filename: `${filename}.pdf`,
    };
  }

  /**
   * What a report of the car for this reader is drawn from, as one text (undefined: not known, the
   * report is not kept): the database's stamp (ReportsRepo.stamp), the day, and the rates to the
   * owner's and the reader's currencies.
   */
  private async version(stamp: ReportStamp): Promise<string | undefined> {
    if (!this.d.ratesTo) return undefined;
    const currencies = [stamp.ownerCurrency, stamp.readerCurrency ?? stamp.ownerCurrency];
    const rates = await Promise.all(currencies.map((c) => this.d.ratesTo?.(c))).catch(() => undefined);
    if (!rates) return undefined;
    const day = this.d.now().toISOString().slice(0, 10);
    return [stamp.stamp, day, ...rates.map((r) => (r ? ratesKey(r) : '-'))].join('|');
  }

  private readonly drawn = new VersionedCache<{ pdf: Buffer; filename: string }, string>(
    PDF_BYTES_KEPT,
    (drawn) => drawn.pdf.length,
  );

  /**
   * Each non-private document's first page: a photo's stored JPEG; a PDF's first page drawn now at a
   * printable size (its list preview if it cannot be drawn; named only if it has none either).
   */
  private async firstPages(vehicleId: number): Promise<ReportPage[]> {
    const rows = await this.d.repo.firstPages(vehicleId);
    const pages: ReportPage[] = [];
    for (const r of rows) {
      const { fileId, contentType, previewFileId, ...rest } = r;
      const image =
        contentType === 'application/pdf'
          ? await this.pdfPage(fileId, previewFileId)
          : await this.d.files.get(fileId);
      pages.push({ ...rest, ...(image ? { image } : {}) });
    }
    return pages;
  }

  private async pdfPage(fileId: string, previewFileId: string | null): Promise<Buffer | undefined> {
    const pdf = await this.d.files.get(fileId);
    const drawn = pdf ? await renderPdfFirstPage(pdf, REPORT_PAGE_MAX_SIDE, 0.8) : null;
    return drawn ?? (previewFileId ? await this.d.files.get(previewFileId) : undefined) ?? undefined;
  }

  /**
   * Reads the car's records and cost rollup side by side; `withPhoto` adds the photo's bytes. The
   * code is worked out from the owner's figures (in the owner's currency) whoever reads; a signed-in
   * reader (`readerId`) gets them printed in their currency (converted as their analytics are) and
   * units, a share link's reader in the owner's.
   */
  private async model(vehicleId: number, lang: Language, withPhoto: boolean, readerId?: number) {
    const [records, owned, reader] = await Promise.all([
      this.d.repo.read(vehicleId),
      this.d.analytics.vehicleCosts(vehicleId),
      readerId !== undefined ? this.d.reader?.(readerId) : undefined,
    ]);
    if (!records) return undefined;
    // The money is left out of the code's content: as before issue 50's reader, the figures only.
    const { money: _ownerMoney, ...costs } = owned;
    const photoId = records.vehicle.photoId;
    const [photo, issued, shown] = await Promise.all([
      withPhoto && photoId ? this.d.files.get(photoId) : undefined,
      this.issue(vehicleId, records, costs),
      readerId !== undefined && reader
        ? this.inReaders(vehicleId, readerId, reader, records, costs)
        : undefined,
    ]);
    const { code, generatedAt } = issued;
    const printed = shown ?? { records, costs };
    return buildModel({
      lang,
      generatedAt,
      code,
      records: { ...printed.records, vehicle: reportReason(printed.records, lang) },
      costs: printed.costs,
      ...(photo ? { photo } : {}),
    });
  }

  /**
   * The records and costs as a signed-in reader reads them (issue 50): in their currency as their
   * vehicle analytics are (the analytics' own answer and the rates it was reached at; the owner's
   * currency when no rate to theirs is known), measures in their units. `owner` then holds what
   * the report is printed in.
   */
  private async inReaders(
    vehicleId: number,
    readerId: number,
    reader: MoneyAndUnits,
    records: ReportRecords,
    costs: Omit<Awaited<ReturnType<Deps['analytics']['vehicleCosts']>>, 'money'>,
  ): Promise<{ records: ReportRecords; costs: typeof costs } | undefined> {
    const owner = records.owner ?? { ...EXISTING_USER_MONEY_AND_UNITS };
    const units = {
      distanceUnit: reader.distanceUnit,
      volumeUnit: reader.volumeUnit,
      consumptionUnit: reader.consumptionUnit,
    };
    if (reader.currency === owner.currency) {
      return { records: { ...records, owner: { ...owner, ...units } }, costs };
    }
    const { money, ...theirs } = await this.d.analytics.vehicleCosts(vehicleId, readerId);
    if (money.currency === owner.currency) {
      return { records: { ...records, owner: { ...owner, ...units } }, costs };
    }
    const read = await this.d.repo.read(vehicleId, money);
    if (!read) return undefined;
    return { records: { ...read, owner: { currency: money.currency, ...units } }, costs: theirs };
  }
}

/**
 * The car's AI reason as the report prints it (issue 50): a built-in evaluation's written again in the
 * report's language, its money in the currency and its measures in the units every other figure of
 * the report is in (`owner`: the signed-in reader's, or the owner's on a share link); a reason without
 * a basis as stored.
 */
function reportReason(records: ReportRecords, lang: Language): ReportRecords['vehicle'] {
  const v = records.vehicle;
  if (v.aiScoreBasis == null) return v;
  const owner = records.owner ?? { ...EXISTING_USER_MONEY_AND_UNITS };
  const basis = v.aiScoreBasis;
  const rates =
    isBasis(basis) && v.aiScoreRate != null ? new Map([[basis.currency, Number(v.aiScoreRate)]]) : undefined;
  return {
    ...v,
    aiScoreReason: readReason(v.aiScoreReason, basis, { language: lang, ...owner }, rates),
  };
}
