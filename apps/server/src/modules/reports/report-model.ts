import type {
  AllTimeTotals,
  CostTotals,
  FuelSplit,
  Language,
  MoneyAndUnits,
  YearlyAnalytics,
} from '@evdra/domain';
import { EXISTING_USER_MONEY_AND_UNITS } from '@evdra/domain';
import type {
  ReportDocument,
  ReportInsurance,
  ReportRecords,
  ReportRenewal,
  ReportService,
  ReportVehicle,
} from './reports.repo.js';

/** Days without a policy; `current` when it lasts up to the report date. */
export type Gap = { from: string; to: string; days: number; current: boolean };
export type Reading = {
  date: string;
  km: number;
  rollback: boolean /** the highest earlier reading */;
  before?: number;
};

/** A document's first page in the report's appendix. */
export type ReportPage = Pick<ReportDocument, 'type' | 'number'> & { title: string; image?: Buffer };

/** What a report shows, computed once for the PDF and the public page. */
export type ReportModel = {
  lang: Language;
  /**
   * The currency every amount is in and the units every measure is shown in: a signed-in reader's
   * (issue 50), the owner's on a share link.
   */
  owner: MoneyAndUnits;
  generatedAt: Date;
  code: string;
  vehicle: ReportVehicle;
  photo?: Buffer;
  /** In order (date, then km); `rollback` when its odometer is below one recorded earlier. */
  services: (ReportService & { rollback: boolean })[];
  insurances: ReportInsurance[];
  gaps: Gap[];
  renewals: ReportRenewal[];
  /** Days a renewal of a type lapsed before the next one of that type, or since the last one ended. */
  renewalGaps: (Gap & { type: ReportRenewal['type'] })[];
  /** The car's papers that are not private: type, number, validity (issue 52). */
  documents: ReportDocument[];
  /**
   * When the owner asks for them (issue 52): each non-private document's first page, `image` the
   * page as a JPEG (a PDF's first page drawn; absent when it could not be, and the report names it).
   */
  pages?: ReportPage[];
  fuel: {
    unit: 'L/100km' | 'kWh/100km';
    fillUps: number;
    distance: number;
    average: number | null;
    lastYear: number | null;
    /** The last 24 months up to the report's month, oldest first, with their fuel cost. */
    monthly: { month: string; cost: number }[];
    /** A two-fuel vehicle's fuels (issue 51), its primary first; empty for a single-fuel vehicle. */
    byFuel: FuelSplit[];
  };
  years: [string, CostTotals][];
  total: AllTimeTotals;
  readings: Reading[];
  rollbacks: Reading[];
};

const DAY = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (iso: string, n: number) => dayOf(new Date(Date.parse(`${iso}T00:00:00Z`) + n * DAY));
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / DAY);

/**
 * Days no policy covered: between policies, and from the last policy's end to the report date.
 * Policies may overlap (an early renewal); what counts is the latest end seen so far.
 */
export function insuranceGaps(policies: ReportInsurance[], today: string): Gap[] {
  const gaps: Gap[] = [];
  let coveredUntil: string | undefined;
  for (const p of [...policies].sort((a, b) => a.startDate.localeCompare(b.startDate))) {
    if (coveredUntil !== undefined && p.startDate > addDays(coveredUntil, 1)) {
      const from = addDays(coveredUntil, 1);
      const to = addDays(p.startDate, -1);
      gaps.push({ from, to, days: daysBetween(from, to) + 1, current: false });
    }
    if (coveredUntil === undefined || p.endDate > coveredUntil) coveredUntil = p.endDate;
  }
  if (coveredUntil !== undefined && coveredUntil < today) {
    const from = addDays(coveredUntil, 1);
    if (from <= today) gaps.push({ from, to: today, days: daysBetween(from, today) + 1, current: true });
  }
  return gaps;
}

/** Odometer readings by date; a reading below one dated earlier is a rollback. */
export function odometerReadings(records: Pick<ReportRecords, 'fills' | 'services'>): Reading[] {
  const raw = [
    ...records.fills.flatMap((f) => (f.odometer === null ? [] : [{ date: f.date, km: f.odometer }])),
    ...records.services.map((s) => ({ date: s.date, km: s.km })),
  ].sort((a, b) => (a.date === b.date ? a.km - b.km : a.date.localeCompare(b.date)));
  const out: Reading[] = [];
  let highestBefore = -1; // the highest reading of the days before the current one
  let highestToday = -1;
  let day = '';
  for (const r of raw) {
    if (r.date !== day) {
      highestBefore = Math.max(highestBefore, highestToday);
      highestToday = -1;
      day = r.date;
    }
    const rollback = highestBefore >= 0 && r.km < highestBefore;
    out.push(rollback ? { ...r, rollback, before: highestBefore } : { ...r, rollback });
    highestToday = Math.max(highestToday, r.km);
  }
  return out;
}

/** Per renewal type (not "Other", which mixes unrelated things), the lapses as for insurance. */
export function renewalGaps(renewals: ReportRenewal[], today: string) {
  const types = [...new Set(renewals.map((r) => r.type))].filter((t) => t !== 'OTHER');
  return types.flatMap((type) =>
    insuranceGaps(
      renewals
        .filter((r) => r.type === type)
        // Without a start date only the end is known: no lapse can be seen before it.
        .map((r) => ({
          provider: '',
          coverageType: '',
          price: 0,
          startDate: r.validFrom ?? r.validUntil,
          endDate: r.validUntil,
        })),
      today,
    ).map((g) => ({ ...g, type })),
  );
}

const avg = (xs: number[]) =>
  xs.length === 0 ? null : Math.round((xs.reduce((s, x) => s + x, 0) / xs.length) * 100) / 100;

export function buildModel(input: {
  lang: Language;
  generatedAt: Date;
  code: string;
  records: ReportRecords;
  /** The analytics module's figures (the same as the vehicle's analytics screen). */
  costs: { months: { month: string; fuel: number }[]; yearly: YearlyAnalytics; total: AllTimeTotals };
  photo?: Buffer;
}): ReportModel {
  const { records, generatedAt } = input;
  const months = input.costs.months;
  const today = dayOf(generatedAt);
  const yearAgo = addDays(today, -365);
  const fills = records.fills;
  const odometers = fills.flatMap((f) => (f.odometer === null ? [] : [f.odometer]));
  const byMonth = new Map(months.map((m) => [m.month.slice(0, 7), m.fuel]));
  const monthly: { month: string; cost: number }[] = [];
  const start = new Date(Date.UTC(generatedAt.getUTCFullYear(), generatedAt.getUTCMonth() - 23, 1));
  for (let i = 0; i < 24; i++) {
    const m = dayOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + i, 1)));
    monthly.push({ month: m, cost: byMonth.get(m.slice(0, 7)) ?? 0 });
  }
  const readings = odometerReadings(records);
  const rolledBack = new Set(readings.flatMap((r) => (r.rollback ? [`${r.date} ${r.km}`] : [])));
  const rated = (xs: typeof fills) => xs.flatMap((f) => (f.consumption === null ? [] : [f.consumption]));
  return {
    lang: input.lang,
    owner: records.owner ?? { ...EXISTING_USER_MONEY_AND_UNITS },
    generatedAt,
    code: input.code,
    vehicle: records.vehicle,
    ...(input.photo ? { photo: input.photo } : {}),
    services: records.services.map((s) => ({ ...s, rollback: rolledBack.has(`${s.date} ${s.km}`) })),
    insurances: records.insurances,
    gaps: insuranceGaps(records.insurances, today),
    renewals: records.renewals ?? [],
    renewalGaps: renewalGaps(records.renewals ?? [], today),
    documents: records.documents ?? [],
    fuel: {
      unit: records.vehicle.fuelType === 'ELECTRIC' ? 'kWh/100km' : 'L/100km',
      fillUps: fills.length,
      distance: odometers.length > 1 ? Math.max(...odometers) - Math.min(...odometers) : 0,
      average: records.consumption ?? avg(rated(fills)),
      lastYear: avg(rated(fills.filter((f) => f.date > yearAgo && f.date <= today))),
      monthly,
      byFuel: (input.costs.total.byFuel?.length ?? 0) > 1 ? (input.costs.total.byFuel ?? []) : [],
    },
    years: Object.entries(input.costs.yearly),
    total: input.costs.total,
    readings,
    rollbacks: readings.filter((r) => r.rollback),
  };
}
