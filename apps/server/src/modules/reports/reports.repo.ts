import type { CurrencyCode, DocumentType, MoneyAndUnits, RenewalType } from '@evdra/domain';
import { and, asc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import { type Access, accessTo } from '../../db/access.js';
import type { Db } from '../../db/client.js';
import { latestRateSql } from '../../db/fx-rates.js';
import { reportCodes, reportLinks, vehicleDocumentPages, vehicleDocuments } from '../../db/schema.js';
import { type NamedStatement, namedStatement } from '../../db/statement.js';
import type { AnswerMoney } from '../../lib/answer-money.js';

export type ReportVehicle = {
  id: number;
  make: string;
  model: string;
  year: number;
  fuelType: import('@evdra/domain').FuelType;
  registrationNumber: string;
  /** The VIN when the owner gave one (null: none). */
  vin: string | null;
  engineSize: number;
  odometer: number;
  aiEvaluationConsent: boolean;
  aiScore: number | null;
  aiScoreReason: string | null;
  /** A built-in evaluation's basis (ai/evaluate.ts), to write its reason in the report's language. */
  aiScoreBasis?: unknown;
  /** Units of the report's currency for one of the basis's money today (null: no rate known). */
  aiScoreRate?: number | null;
  photoId: string | null;
  ownerUsername: string;
};
export type ReportService = { date: string; km: number; price: number; description: string };
export type ReportInsurance = {
  provider: string;
  coverageType: string;
  startDate: string;
  endDate: string;
  price: number;
};
export type ReportRenewal = {
  type: RenewalType;
  validFrom: string | null;
  validUntil: string;
  price: number | null;
};
/** A document of the car (not a private one): what the report lists of it. */
export type ReportDocument = {
  type: DocumentType;
  number: string | null;
  issuedOn: string | null;
  expiresOn: string | null;
};
/** The first page of a document that is not private, for the report's appendix (issue 52). */
export type ReportFirstPage = {
  type: DocumentType;
  title: string;
  number: string | null;
  fileId: string;
  contentType: string;
  /** The list's small image of the page (a PDF's drawn at upload), if one was made. */
  previewFileId: string | null;
};
export type ReportFill = {
  date: string;
  odometer: number | null;
  liters: number;
  fuelPrice: number;
  consumption: number | null;
};
/** Everything the report shows beside the cost rollup, read in one statement. */
export type ReportRecords = {
  vehicle: ReportVehicle;
  services: ReportService[];
  insurances: ReportInsurance[];
  /** RCA, ITP, rovinietă, ITV, road tax…: by validity, oldest first. */
  renewals: ReportRenewal[];
  /** The car's papers, but those its owner marked private (issue 52). */
  documents?: ReportDocument[];
  fills: ReportFill[];
  /** Average L/100km (kWh/100km) of the fill-ups that have one, as the marketplace card's history. */
  consumption: number | null;
  /**
   * The owner's currency and units (issue 50): the report's amounts are in that currency (each
   * record's price at its stored rate, the costs from the analytics in it) and its measures in those
   * units. For a signed-in reader the service puts the reader's in its place (the currency the
   * records were read in, ReportsRepo.read's `money`, and the reader's units).
   */
  owner: MoneyAndUnits;
};

/** ReportsRepo.stamp's answer. */
export type ReportStamp = {
  stamp: string;
  /** The reader's relation to the car (accessTo): null when they do not reach it. */
  access: Access | null;
  ownerCurrency: CurrencyCode;
  /** Null without a signed-in reader. */
  readerCurrency: CurrencyCode | null;
};

export type LinkRow = typeof reportLinks.$inferSelect;
export type CodeRow = typeof reportCodes.$inferSelect;

function parsed(rows: { json: string | ReportRecords | null }[]): ReportRecords | undefined {
  const [row] = rows;
  if (!row?.json) return undefined;
  return typeof row.json === 'string' ? JSON.parse(row.json) : row.json;
}

/** The report's reads and its links and verification codes. */
export class ReportsRepo {
  constructor(private readonly db: Db) {}

  private records?: NamedStatement<{ json: string | ReportRecords | null }>;
  private recordsIn?: NamedStatement<{ json: string | ReportRecords | null }>;

  /**
   * The vehicle (with its owner's username) and its records, oldest first; undefined when gone. Its
   * amounts in the owner's currency, or with `money` (a signed-in reader's: the analytics' answer
   * money for them, AnalyticsService.vehicleCosts) in its currency at its rates. `owner` is the
   * owner's settings either way.
   */
  async read(vehicleId: number, money?: AnswerMoney): Promise<ReportRecords | undefined> {
    // A record's price in the owner's currency now (issue 50): at its stored rate, in the currency its
    // owner had when it was written (rate_currency), then at the day's reference rate to the owner's
    // currency if they have changed it since, as the report's costs (the analytics) convert.
    const owned = (amount: SQL, record: SQL) =>
      sql`round(round(${amount} * coalesce(${record}.exchange_rate, 1), 2)
        * coalesce(${latestRateSql(sql`${record}.rate_currency`, sql`u.currency`, sql`current_date`)}, 1), 2)`;
    if (!money) {
      this.records ??= namedStatement(
        this.db,
        'report_records',
        this.recordsSql(
          owned,
          latestRateSql(sql`v.ai_score_basis->>'currency'`, sql`u.currency`, sql`current_date`),
        ),
      );
      return parsed(await this.records({ id: vehicleId }));
    }
    // For a reader (issue 50): the amount at its stored rate (in rate_currency), then at the rate the
    // reader's analytics reach their currency from that one (the answer's rates, the day's reference
    // rates), as their costs are summed; a currency the rates lack (none the analytics saw) at the
    // day's reference rate.
    const currency = sql`${sql.placeholder('currency')}::text`;
    const rateOf = (from: SQL) =>
      sql`coalesce(((select ${sql.placeholder('rates')}::jsonb) ->> (${from}))::numeric,
        ${latestRateSql(from, currency, sql`current_date`)})`;
    const read = (amount: SQL, record: SQL) =>
      sql`round(round(${amount} * coalesce(${record}.exchange_rate, 1), 2)
        * coalesce(${rateOf(sql`${record}.rate_currency`)}, 1), 2)`;
    this.recordsIn ??= namedStatement(
      this.db,
      'report_records_in',
      this.recordsSql(read, rateOf(sql`v.ai_score_basis->>'currency'`)),
    );
    return parsed(
      await this.recordsIn({
        id: vehicleId,
        currency: money.currency,
        rates: JSON.stringify(Object.fromEntries(money.rates)),
      }),
    );
  }

  private stamps?: NamedStatement<ReportStamp>;

  /**
   * What a drawn report of the car depends on in the database besides the exchange rates, as one text
   * that changes whenever any of it does (undefined: no such car): the car's row (make, photo,
   * odometer, AI reason, owner), its records' version (every record statement bumps it, migration
   * 0020), its owner's and the reader's rows (name, currency, units) and its papers and their pages.
   * A row's `xmin` is the transaction that wrote its current version: any update gives it another.
   * With the owner's and the reader's currencies, whose rates the report is converted at, and the
   * reader's access (`userId`: null for an administrator or a share link, who reach every car): the
   * check rides in the same round trip.
   */
  async stamp(vehicleId: number, readerId: number, userId: number | null): Promise<ReportStamp | undefined> {
    this.stamps ??= namedStatement(
      this.db,
      'report_stamp',
      sql`select concat_ws('|', v.xmin, coalesce(rv.version, 0), o.xmin, coalesce(r.xmin::text, '-'),
            coalesce((select string_agg(concat_ws(':', d.id, d.xmin,
                (select string_agg(p.xmin::text, ',' order by p.page)
                   from vehicle_document_pages p where p.document_id = d.id)), ',' order by d.id)
              from vehicle_documents d where d.vehicle_id = v.id), '-'), current_date) as stamp,
            o.currency as "ownerCurrency", r.currency as "readerCurrency", ${accessTo(sql`v.id`)} as access
          from vehicles v join users o on o.id = v.owner_id
          left join vehicle_record_versions rv on rv.vehicle_id = v.id
          left join users r on r.id = ${sql.placeholder('reader')}
         where v.id = ${sql.placeholder('id')}`,
    );
    const [row] = await this.stamps({ id: vehicleId, reader: readerId, userId });
    return row;
  }

  /** The records statement, each price through `price`, the AI basis's money at `basisRate`. */
  private recordsSql(price: (amount: SQL, record: SQL) => SQL, basisRate: SQL): SQL {
    const owned = price;
    const id = sql.placeholder('id');
    return sql`
        select json_build_object(
          'vehicle', json_build_object(
            'id', v.id, 'make', v.make, 'model', v.model, 'year', v.year, 'fuelType', v.fuel_type,
            'registrationNumber', v.registration_number, 'vin', v.vin,
            'engineSize', v.engine_size,
            'odometer', v.odometer, 'aiEvaluationConsent', v.ai_evaluation_consent,
            'aiScore', v.ai_score, 'aiScoreReason', v.ai_score_reason, 'photoId', v.photo_id,
            'ownerUsername', u.username, 'aiScoreBasis', v.ai_score_basis,
            -- The basis's money in the report's currency now, as the records' prices here (issue 50).
            'aiScoreRate', case when v.ai_score_basis is not null then ${basisRate} end),
          'services', (select coalesce(json_agg(json_build_object(
              'date', r.date, 'km', r.km, 'price', ${owned(sql`r.price`, sql`r`)},
              'description', r.description)
              order by r.date, r.km, r.id), '[]') from revisions r where r.vehicle_id = v.id),
          'insurances', (select coalesce(json_agg(json_build_object(
              'provider', i.provider, 'coverageType', i.coverage_type, 'startDate', i.start_date,
              'endDate', i.end_date, 'price', ${owned(sql`i.price`, sql`i`)})
              order by i.start_date, i.end_date, i.id), '[]') from insurances i where i.vehicle_id = v.id),
          'renewals', (select coalesce(json_agg(json_build_object(
              'type', n.type, 'validFrom', n.valid_from, 'validUntil', n.valid_until,
              'price', ${owned(sql`n.price`, sql`n`)})
              order by n.valid_until, n.id), '[]') from renewals n where n.vehicle_id = v.id),
          -- The car's papers that are not private (issue 52): type, number, validity; never the pages.
          'documents', (select coalesce(json_agg(json_build_object(
              'type', d.type, 'number', d.number, 'issuedOn', d.issued_on, 'expiresOn', d.expires_on)
              order by d.type, d.expires_on desc nulls last, d.id desc), '[]')
              from vehicle_documents d where d.vehicle_id = v.id and not d.private),
          'fills', (select coalesce(json_agg(json_build_object(
              'date', f.date, 'odometer', f.odometer, 'liters', f.liters,
              'fuelPrice', ${owned(sql`f.fuel_price`, sql`f`)},
              'consumption', f.consumption_per_100km)
              order by f.date, f.odometer, f.id), '[]') from fuel_entries f where f.vehicle_id = v.id),
          'consumption', (select h.consumption from vehicle_history h where h.vehicle_id = v.id),
          'owner', json_build_object('currency', u.currency, 'distanceUnit', u.distance_unit,
              'volumeUnit', u.volume_unit, 'consumptionUnit', u.consumption_unit)
        )::text as json
        from vehicles v join users u on u.id = v.owner_id
        where v.id = ${id}`;
  }

  /** The first page of each of the car's documents that are not private, in the list's order. */
  firstPages(vehicleId: number): Promise<ReportFirstPage[]> {
    return this.db
      .select({
        type: vehicleDocuments.type,
        title: vehicleDocuments.title,
        number: vehicleDocuments.number,
        fileId: vehicleDocumentPages.fileId,
        contentType: vehicleDocumentPages.contentType,
        previewFileId: vehicleDocuments.previewFileId,
      })
      .from(vehicleDocuments)
      .innerJoin(
        vehicleDocumentPages,
        and(eq(vehicleDocumentPages.documentId, vehicleDocuments.id), eq(vehicleDocumentPages.page, 1)),
      )
      .where(and(eq(vehicleDocuments.vehicleId, vehicleId), eq(vehicleDocuments.private, false)))
      .orderBy(
        asc(vehicleDocuments.type),
        sql`${vehicleDocuments.expiresOn} desc nulls last`,
        sql`${vehicleDocuments.id} desc`,
      );
  }

  /** Inserts the code unless it exists; the stored row either way (the first issue wins). */
  async issueCode(row: CodeRow): Promise<CodeRow> {
    const [inserted] = await this.db.insert(reportCodes).values(row).onConflictDoNothing().returning();
    return inserted ?? ((await this.code(row.code)) as CodeRow);
  }

  async code(code: string): Promise<CodeRow | undefined> {
    const [row] = await this.db.select().from(reportCodes).where(eq(reportCodes.code, code));
    return row;
  }

  async insertLink(values: {
    token: string;
    vehicleId: number;
    createdBy: number;
    listingId?: number;
    expiresAt: Date;
  }): Promise<LinkRow> {
    const [row] = await this.db.insert(reportLinks).values(values).returning();
    return row as LinkRow;
  }

  /** The vehicle's links still open at `now`, newest first. */
  links(vehicleId: number, now: Date): Promise<LinkRow[]> {
    return this.db
      .select()
      .from(reportLinks)
      .where(
        and(
          eq(reportLinks.vehicleId, vehicleId),
          isNull(reportLinks.revokedAt),
          gt(reportLinks.expiresAt, now),
        ),
      )
      .orderBy(asc(reportLinks.expiresAt), asc(reportLinks.id));
  }

  /** Revokes one open link of the vehicle; false when there is none with that token. */
  async revoke(vehicleId: number, token: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(reportLinks)
      .set({ revokedAt: now })
      .where(
        and(
          eq(reportLinks.vehicleId, vehicleId),
          eq(reportLinks.token, token),
          isNull(reportLinks.revokedAt),
          gt(reportLinks.expiresAt, now),
        ),
      )
      .returning({ id: reportLinks.id });
    return rows.length > 0;
  }

  /** An open link by its token. */
  async openLink(token: string, now: Date): Promise<LinkRow | undefined> {
    const [row] = await this.db
      .select()
      .from(reportLinks)
      .where(
        and(eq(reportLinks.token, token), isNull(reportLinks.revokedAt), gt(reportLinks.expiresAt, now)),
      );
    return row;
  }
}
