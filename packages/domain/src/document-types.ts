/* Without zod: a vehicle's document types and their names (the Papers screen needs no schemas). */
import type { Language } from './enums.js';
import type { Country, RenewalType } from './renewals.js';

/**
 * A vehicle's papers (issue 52): one or more pages (photos or one PDF) with a type, a title, an
 * optional number, issue and expiry dates and notes. The type names are the API's contract.
 */
export const DOCUMENT_TYPES = [
  'REGISTRATION',
  'TECHNICAL_CARD',
  'MTPL_INSURANCE',
  'CASCO',
  'INSPECTION',
  'VIGNETTE',
  'ENV_LABEL',
  'PURCHASE_CONTRACT',
  'INVOICE',
  'WARRANTY',
  'OTHER',
] as const;
/** A document type (documents.ts's DocumentType, without zod). */
export type DocumentTypeName = (typeof DOCUMENT_TYPES)[number];
type DocumentType = DocumentTypeName;

/** Everything a document's pages may weigh, as uploaded (photos before re-encoding). */
export const DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;
/** Pages a document may have. */
export const DOCUMENT_MAX_PAGES = 20;
/** Per-user storage of documents when DOCUMENT_QUOTA_MB is not set. */
export const DOCUMENT_QUOTA_MB_DEFAULT = 500;

const EVERYWHERE: readonly DocumentType[] = ['PURCHASE_CONTRACT', 'INVOICE', 'WARRANTY', 'OTHER'];

/** The types a driver of each country is offered, in the order they think of them; OTHER last. */
export const DOCUMENT_TYPES_BY_COUNTRY: Record<Country, readonly DocumentType[]> = {
  RO: ['REGISTRATION', 'MTPL_INSURANCE', 'INSPECTION', 'VIGNETTE', 'CASCO', 'TECHNICAL_CARD', ...EVERYWHERE],
  ES: ['REGISTRATION', 'TECHNICAL_CARD', 'INSPECTION', 'MTPL_INSURANCE', 'ENV_LABEL', ...EVERYWHERE],
  GB: ['REGISTRATION', 'MTPL_INSURANCE', 'INSPECTION', 'CASCO', 'VIGNETTE', ...EVERYWHERE],
  US: ['REGISTRATION', 'MTPL_INSURANCE', 'INSPECTION', 'CASCO', ...EVERYWHERE],
  GENERIC: [
    'REGISTRATION',
    'TECHNICAL_CARD',
    'MTPL_INSURANCE',
    'CASCO',
    'INSPECTION',
    'VIGNETTE',
    'ENV_LABEL',
    ...EVERYWHERE,
  ],
};

type Labels = Record<Language, string>;
/** The name every country uses when its own is not known. */
const GENERIC_LABELS: Record<DocumentType, Labels> = {
  REGISTRATION: {
    en: 'Registration certificate',
    ro: 'Certificat de înmatriculare',
    es: 'Permiso de circulación',
  },
  TECHNICAL_CARD: {
    en: 'Vehicle technical card',
    ro: 'Cartea de identitate a vehiculului',
    es: 'Ficha técnica',
  },
  MTPL_INSURANCE: { en: 'Liability insurance', ro: 'Asigurare obligatorie', es: 'Seguro obligatorio' },
  CASCO: { en: 'Comprehensive insurance (CASCO)', ro: 'CASCO', es: 'Seguro a todo riesgo' },
  INSPECTION: { en: 'Technical inspection', ro: 'Inspecție tehnică', es: 'Inspección técnica' },
  VIGNETTE: { en: 'Road vignette', ro: 'Vinietă', es: 'Viñeta' },
  ENV_LABEL: { en: 'Environmental label', ro: 'Etichetă ecologică', es: 'Etiqueta ambiental' },
  PURCHASE_CONTRACT: {
    en: 'Purchase contract',
    ro: 'Contract de vânzare-cumpărare',
    es: 'Contrato de compraventa',
  },
  INVOICE: { en: 'Invoice', ro: 'Factură', es: 'Factura' },
  WARRANTY: { en: 'Warranty', ro: 'Garanție', es: 'Garantía' },
  OTHER: { en: 'Other', ro: 'Altele', es: 'Otro' },
};

/** Each country's own names (the issue's): shown to a driver of that country in every language. */
const COUNTRY_LABELS: Partial<Record<Country, Partial<Record<DocumentType, Labels>>>> = {
  RO: {
    REGISTRATION: {
      en: 'Registration certificate (talon)',
      ro: 'Certificat de înmatriculare (talon)',
      es: 'Certificado de matriculación (talon)',
    },
    TECHNICAL_CARD: {
      en: 'Vehicle identity card (CIV)',
      ro: 'Cartea de identitate a vehiculului (CIV)',
      es: 'Tarjeta de identidad del vehículo (CIV)',
    },
    MTPL_INSURANCE: { en: 'RCA (liability insurance)', ro: 'RCA', es: 'RCA (seguro obligatorio)' },
    CASCO: { en: 'CASCO (comprehensive insurance)', ro: 'CASCO', es: 'CASCO (seguro a todo riesgo)' },
    INSPECTION: { en: 'ITP (technical inspection)', ro: 'ITP', es: 'ITP (inspección técnica)' },
    VIGNETTE: { en: 'Rovinietă (road vignette)', ro: 'Rovinietă', es: 'Rovinietă (viñeta)' },
  },
  ES: {
    REGISTRATION: {
      en: 'Permiso de circulación (registration)',
      ro: 'Permiso de circulación (certificat de înmatriculare)',
      es: 'Permiso de circulación',
    },
    TECHNICAL_CARD: {
      en: 'Ficha técnica (technical card)',
      ro: 'Ficha técnica (cartea tehnică)',
      es: 'Ficha técnica',
    },
    MTPL_INSURANCE: {
      en: 'Seguro obligatorio (liability insurance)',
      ro: 'Seguro obligatorio (asigurare obligatorie)',
      es: 'Seguro obligatorio',
    },
    INSPECTION: { en: 'ITV (technical inspection)', ro: 'ITV (inspecție tehnică)', es: 'ITV' },
    ENV_LABEL: {
      en: 'Etiqueta ambiental (environmental label)',
      ro: 'Etiqueta ambiental (etichetă ecologică)',
      es: 'Etiqueta ambiental',
    },
  },
};

/** A document type under the name its country gives it, in the reader's language. */
export function documentTypeLabel(type: DocumentType, country: Country, lang: Language): string {
  return (COUNTRY_LABELS[country]?.[type] ?? GENERIC_LABELS[type])[lang];
}

/**
 * Private by default (not handed to a buyer with the car): the papers that carry the seller's own
 * identity: the registration certificate (holder's name, address, personal number), the insurance
 * policies (the insured's) and the purchase contract and invoices (the parties'). The car's own
 * papers (technical card, inspection, vignette, label, warranty) go with it unless ticked private.
 */
export const DEFAULT_PRIVATE_DOCUMENT_TYPES: readonly DocumentType[] = [
  'REGISTRATION',
  'MTPL_INSURANCE',
  'CASCO',
  'PURCHASE_CONTRACT',
  'INVOICE',
];
export const isPrivateByDefault = (type: DocumentType) => DEFAULT_PRIVATE_DOCUMENT_TYPES.includes(type);

/**
 * The renewal a document with an expiry date makes (its reminder, push, calendar entry and place in
 * the renewals list), by the type and the owner's country.
 */
export function renewalTypeOfDocument(type: DocumentType, country: Country): RenewalType {
  switch (type) {
    case 'MTPL_INSURANCE':
      return country === 'RO' ? 'RCA' : country === 'ES' ? 'SEGURO_OBLIGATORIO' : 'INSURANCE';
    case 'CASCO':
      return 'CASCO';
    case 'INSPECTION':
      return country === 'RO' ? 'ITP' : country === 'ES' ? 'ITV' : 'INSPECTION';
    case 'VIGNETTE':
      return country === 'RO' ? 'ROVINIETA' : 'VIGNETTE';
    default:
      return 'OTHER';
  }
}

/** The reader's country for the type names: theirs, else their language's (ro → RO, es → ES). */
export function documentCountry(country: Country | null | undefined, lang: Language): Country {
  if (country) return country;
  return lang === 'ro' ? 'RO' : lang === 'es' ? 'ES' : 'GENERIC';
}
