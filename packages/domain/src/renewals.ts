import { z } from 'zod';
import { IsoDate, Money, Text } from './common.js';
import type { Language } from './enums.js';
import { RecordMoney, RecordMoneyFields } from './money-schemas.js';

/**
 * Where the user drives, for the renewal presets and a new account's currency and units. Not a full
 * country list: the two countries whose renewals the app knows, GB and US (their own money and units,
 * the generic renewals), and GENERIC for everyone else. Unset, it follows the language (ro → RO,
 * es → ES, en → GENERIC).
 */
export const COUNTRIES = ['RO', 'ES', 'GB', 'US', 'GENERIC'] as const;
export const Country = z.enum(COUNTRIES);
export type Country = z.infer<typeof Country>;

export function countryOfLanguage(lang: Language): Country {
  return lang === 'ro' ? 'RO' : lang === 'es' ? 'ES' : 'GENERIC';
}

/** Every renewal type; the web offers those of the user's country plus OTHER. */
export const RENEWAL_TYPES = [
  'RCA',
  'CASCO',
  'ITP',
  'ROVINIETA',
  'SEGURO_OBLIGATORIO',
  'ITV',
  'IVTM',
  'ROAD_TAX',
  'VIGNETTE',
  'INSPECTION',
  'INSURANCE',
  'OTHER',
] as const;
export const RenewalType = z.enum(RENEWAL_TYPES);
export type RenewalType = z.infer<typeof RenewalType>;

/** The renewals every country has, for the countries whose own the app does not know. */
const GENERIC_RENEWAL_TYPES: readonly RenewalType[] = [
  'INSURANCE',
  'INSPECTION',
  'ROAD_TAX',
  'VIGNETTE',
  'OTHER',
];

/** The presets of each country, in the order a driver there thinks of them; OTHER is always last. */
export const RENEWAL_TYPES_BY_COUNTRY: Record<Country, readonly RenewalType[]> = {
  RO: ['RCA', 'CASCO', 'ITP', 'ROVINIETA', 'OTHER'],
  ES: ['SEGURO_OBLIGATORIO', 'ITV', 'IVTM', 'OTHER'],
  GB: GENERIC_RENEWAL_TYPES,
  US: GENERIC_RENEWAL_TYPES,
  GENERIC: GENERIC_RENEWAL_TYPES,
};

/** Labels in each language (the reminder, the calendar and the web use the same). */
export const RENEWAL_LABELS: Record<RenewalType, Record<Language, string>> = {
  RCA: { en: 'RCA (liability insurance)', ro: 'RCA', es: 'RCA (seguro obligatorio)' },
  CASCO: { en: 'CASCO (comprehensive insurance)', ro: 'CASCO', es: 'CASCO (seguro a todo riesgo)' },
  ITP: { en: 'ITP (technical inspection)', ro: 'ITP', es: 'ITP (inspección técnica)' },
  ROVINIETA: { en: 'Rovinietă (road vignette)', ro: 'Rovinietă', es: 'Rovinietă (viñeta)' },
  SEGURO_OBLIGATORIO: {
    en: 'Mandatory insurance (seguro obligatorio)',
    ro: 'Asigurare obligatorie (seguro obligatorio)',
    es: 'Seguro obligatorio',
  },
  ITV: { en: 'ITV (technical inspection)', ro: 'ITV (inspecție tehnică)', es: 'ITV' },
  IVTM: { en: 'IVTM (road tax)', ro: 'IVTM (impozit auto)', es: 'IVTM (impuesto de circulación)' },
  ROAD_TAX: { en: 'Road tax', ro: 'Impozit auto', es: 'Impuesto de circulación' },
  VIGNETTE: { en: 'Vignette', ro: 'Vinietă', es: 'Viñeta' },
  INSPECTION: { en: 'Technical inspection', ro: 'Inspecție tehnică', es: 'Inspección técnica' },
  INSURANCE: { en: 'Insurance', ro: 'Asigurare', es: 'Seguro' },
  OTHER: { en: 'Other', ro: 'Altele', es: 'Otro' },
};

export const renewalLabel = (type: RenewalType, lang: Language) => RENEWAL_LABELS[type][lang];

const RenewalFields = z.object({
  type: RenewalType,
  validFrom: IsoDate.nullable().optional(),
  validUntil: IsoDate,
  price: Money.nullable().optional(),
  note: Text(500).default(''),
  reminderEnabled: z.boolean().default(true),
  ...RecordMoneyFields,
});
const untilNotBeforeFrom = <T extends { validFrom?: string | null; validUntil: string }>(v: T) =>
  !v.validFrom || v.validUntil >= v.validFrom;
const untilMessage = { message: 'Valid until cannot be before valid from.', path: ['validUntil'] };

export const RenewalBody = RenewalFields.refine(untilNotBeforeFrom, untilMessage);
export type RenewalBody = z.infer<typeof RenewalBody>;
export const RenewalUpdateBody = RenewalFields.extend({
  /** The version the change was based on; a stale one gets 409 with the current renewal. */
  version: z.number().int().min(0).optional(),
}).refine(untilNotBeforeFrom, untilMessage);
export type RenewalUpdateBody = z.infer<typeof RenewalUpdateBody>;

export const Renewal = z.object({
  id: z.number().int(),
  vehicleId: z.number().int(),
  type: RenewalType,
  validFrom: z.string().nullable(),
  validUntil: z.string(),
  price: z.number().nullable(),
  note: z.string(),
  reminderEnabled: z.boolean(),
  ...RecordMoney,
  version: z.number().int(),
});
export type Renewal = z.infer<typeof Renewal>;

export const RenewalParams = z.object({
  id: z.coerce.number().int().positive(),
  renewalId: z.coerce.number().int().positive(),
});

/** Days before a renewal expires at which its owner is reminded (0 = the last valid day). */
export const RENEWAL_REMINDER_DAYS = [30, 7, 1, 0] as const;

const addYears = (iso: string, years: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  const month = d.getUTCMonth();
  d.setUTCFullYear(d.getUTCFullYear() + years);
  // 29 February + 1 year → 28 February, not 1 March.
  if (d.getUTCMonth() !== month) d.setUTCDate(0);
  return d.toISOString().slice(0, 10);
};

/**
 * Romania, ITP of a passenger car (category M1), by the Romanian Road Registry's rule RNTR 1
 * (Ordinul MT nr. 2133/2005, Anexa 1): a new car's first inspection is due 3 years after its first
 * registration, then every 2 years; a car older than 12 years is inspected every year. Returns the
 * period in years that applies to an inspection done on `inspectedOn` of a car made in `vehicleYear`
 * (only the year is known: the age counts from 1 January of that year).
 */
export function itpPeriodYears(vehicleYear: number, inspectedOn: string): 1 | 2 {
  const age = Number(inspectedOn.slice(0, 4)) - vehicleYear;
  return age >= 12 ? 1 : 2;
}

/** Romania: the suggested next ITP date after an inspection on `inspectedOn` (see itpPeriodYears). */
export function suggestNextItp(vehicleYear: number, inspectedOn: string): string {
  return addYears(inspectedOn, itpPeriodYears(vehicleYear, inspectedOn));
}

/**
 * Spain, ITV of a private passenger car (turismo de uso privado), by Real Decreto 920/2017, Anexo I:
 * exempt for the first 4 years, every 2 years from 4 to 10 years old, every year after 10 years.
 * `none` while the car is under 4 years old.
 */
export function itvPeriodYears(vehicleYear: number, onDate: string): 'none' | 1 | 2 {
  const age = Number(onDate.slice(0, 4)) - vehicleYear;
  if (age < 4) return 'none';
  return age > 10 ? 1 : 2;
}

/**
 * Spain: the suggested next ITV date. After an inspection on `inspectedOn`, the period that applies
 * then; a car still exempt is first due on its 4th anniversary (1 January of vehicleYear + 4).
 */
export function suggestNextItv(vehicleYear: number, inspectedOn: string): string {
  const period = itvPeriodYears(vehicleYear, inspectedOn);
  if (period === 'none') return `${vehicleYear + 4}-01-01`;
  return addYears(inspectedOn, period);
}

/**
 * Romania, rovinietă (road vignette, OG 15/2002): bought for a period from 1 day to 12 months
 * (which periods exist depends on the vehicle category: 1 and 7 days for goods vehicles, 10 days
 * and up for cars). It is valid from 00:00 of its first day to 24:00 of its last.
 */
export const ROVINIETA_PERIODS = ['1d', '7d', '10d', '30d', '60d', '90d', '12m'] as const;
export type RovinietaPeriod = (typeof ROVINIETA_PERIODS)[number];

/** The last valid day of a rovinietă bought for `period` starting on `from` (both days included). */
export function rovinietaValidUntil(from: string, period: RovinietaPeriod): string {
  const d = new Date(`${from}T00:00:00Z`);
  // 12 months: the day before the same date a year on (29 February → 28 February).
  if (period === '12m') d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCDate(d.getUTCDate() + Number(period.slice(0, -1)));
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
