import {
  EXISTING_USER_MONEY_AND_UNITS,
  type FuelSplit,
  type FuelType,
  kmToDistance,
  type Language,
  type MoneyAndUnits,
  type RenewalType,
  renewalLabel,
} from '@evdra/domain';
import { consumptionIn, groupedMoney } from '../../lib/reader-format.js';

/**
 * The report's words in the reader's language (as the reminder and marketplace texts): the PDF and
 * the public page are written on the server. Numbers, dates and money are formatted with Intl by
 * `formats(lang)`.
 */
const en = {
  title: 'Vehicle history report',
  generated: 'Report date',
  vehicle: 'Vehicle',
  make: 'Make and model',
  year: 'Year',
  fuel: 'Fuel',
  engine: 'Engine',
  registration: 'Registration',
  vin: 'VIN',
  odometer: 'Current odometer',
  owner: 'Owner',
  fuelTypes: { PETROL: 'Petrol', DIESEL: 'Diesel', GPL: 'LPG', ELECTRIC: 'Electric', CNG: 'CNG' },
  services: 'Service history',
  date: 'Date',
  km: 'Odometer',
  price: 'Price',
  description: 'Description',
  noServices: 'No services recorded.',
  insurance: 'Insurance and renewals',
  provider: 'Provider',
  coverage: 'Coverage',
  validity: 'Valid',
  noInsurance: 'No insurance recorded.',
  gap: (from: string, to: string, days: string) => `Not insured from ${from} to ${to} (${days} days)`,
  uninsured: (from: string, days: string) => `Not insured since ${from} (${days} days)`,
  noGaps: 'No gaps between policies.',
  renewal: 'Renewal',
  document: 'Document',
  number: 'Number',
  firstPages: 'Documents: first pages',
  pdfNotEmbedded: 'PDF, not embedded in this report.',
  renewalGap: (type: string, from: string, to: string, days: string) =>
    `${type} not valid from ${from} to ${to} (${days} days)`,
  renewalExpired: (type: string, from: string, days: string) =>
    `${type} expired: not valid since ${from} (${days} days)`,
  fuelSection: 'Fuel',
  fillUps: 'Fill-ups',
  distance: 'Distance covered',
  kmRecorded: 'Kilometres recorded',
  average: 'Average consumption',
  lastYear: 'Last 12 months',
  monthlyFuel: 'Fuel cost per month',
  noFuel: 'No fill-ups recorded.',
  byFuelNote: 'Each fuel over every km driven: the odometer does not say which fuel drove them.',
  costs: 'Costs',
  category: 'Category',
  categories: { fuel: 'Fuel', expenses: 'Other expenses', insurance: 'Insurance', revisions: 'Services' },
  total: 'Total',
  tco: 'Total cost of ownership',
  perKm: 'Cost per km',
  noCosts: 'No costs recorded.',
  odometerSection: 'Odometer readings',
  readings: 'readings',
  rollback: (km: string, date: string, before: string) =>
    `Rollback: ${km} on ${date}, lower than ${before} recorded earlier`,
  noRollback: 'No reading is lower than an earlier one.',
  noReadings: 'No odometer readings recorded.',
  ai: 'AI evaluation',
  score: 'Score',
  page: (n: number, of: number) => `Page ${n} of ${of}`,
  footer: (at: string, code: string) => `Generated ${at} · Verification code ${code}`,
  verifyHint: (url: string) => `Check this report is genuine at ${url}`,
  download: 'Download PDF',
  code: 'Verification code',
  readOnly: 'Read-only copy shared by the owner.',
  notFoundTitle: 'Report not available',
  notFound: 'This report link has expired, was revoked, or never existed.',
  verifyTitle: 'Report verification',
  genuine: 'Genuine report',
  genuineText:
    'This verification code was issued by this site for the report below. Check that the printed report shows the same vehicle, date and odometer.',
  notGenuine: 'Not a genuine report',
  notGenuineText:
    'No report was issued with this code. Check the code for typing mistakes; if it is right, the printed report was not issued by this site.',
  odometerThen: 'Odometer at the time',
  verifyAnother: 'Check another code',
  check: 'Check',
  expires: 'Link valid until',
};
type Texts = typeof en;

const ro: Texts = {
  title: 'Raport de istoric al vehiculului',
  generated: 'Data raportului',
  vehicle: 'Vehicul',
  make: 'Marcă și model',
  year: 'An',
  fuel: 'Combustibil',
  engine: 'Motor',
  registration: 'Număr de înmatriculare',
  vin: 'Serie șasiu (VIN)',
  odometer: 'Kilometraj actual',
  owner: 'Proprietar',
  fuelTypes: { PETROL: 'Benzină', DIESEL: 'Motorină', GPL: 'GPL', ELECTRIC: 'Electric', CNG: 'GNC' },
  services: 'Istoric revizii',
  date: 'Data',
  km: 'Kilometraj',
  price: 'Preț',
  description: 'Descriere',
  noServices: 'Nicio revizie înregistrată.',
  insurance: 'Asigurări și reînnoiri',
  provider: 'Asigurător',
  coverage: 'Acoperire',
  validity: 'Valabilă',
  noInsurance: 'Nicio asigurare înregistrată.',
  gap: (from, to, days) => `Neasigurat între ${from} și ${to} (${days} zile)`,
  uninsured: (from, days) => `Neasigurat din ${from} (${days} zile)`,
  noGaps: 'Fără întreruperi între polițe.',
  renewal: 'Reînnoire',
  document: 'Act',
  number: 'Număr',
  firstPages: 'Acte: prima pagină',
  pdfNotEmbedded: 'PDF, neinclus în acest raport.',
  renewalGap: (type, from, to, days) => `${type} nevalabil între ${from} și ${to} (${days} zile)`,
  renewalExpired: (type, from, days) => `${type} expirat: nevalabil din ${from} (${days} zile)`,
  fuelSection: 'Combustibil',
  fillUps: 'Alimentări',
  distance: 'Distanță parcursă',
  kmRecorded: 'Kilometri înregistrați',
  average: 'Consum mediu',
  lastYear: 'Ultimele 12 luni',
  monthlyFuel: 'Cost combustibil pe lună',
  noFuel: 'Nicio alimentare înregistrată.',
  byFuelNote:
    'Fiecare combustibil raportat la toți kilometrii parcurși: kilometrajul nu arată pe ce combustibil s-au parcurs.',
  costs: 'Costuri',
  category: 'Categorie',
  categories: {
    fuel: 'Combustibil',
    expenses: 'Alte cheltuieli',
    insurance: 'Asigurare',
    revisions: 'Revizii',
  },
  total: 'Total',
  tco: 'Cost total de proprietate',
  perKm: 'Cost pe km',
  noCosts: 'Niciun cost înregistrat.',
  odometerSection: 'Citiri kilometraj',
  readings: 'citiri',
  rollback: (km, date, before) =>
    `Kilometraj dat înapoi: ${km} pe ${date}, sub ${before} înregistrat anterior`,
  noRollback: 'Nicio citire nu este mai mică decât una anterioară.',
  noReadings: 'Nicio citire de kilometraj înregistrată.',
  ai: 'Evaluare AI',
  score: 'Scor',
  page: (n, of) => `Pagina ${n} din ${of}`,
  footer: (at, code) => `Generat ${at} · Cod de verificare ${code}`,
  verifyHint: (url) => `Verifică autenticitatea raportului la ${url}`,
  download: 'Descarcă PDF',
  code: 'Cod de verificare',
  readOnly: 'Copie doar pentru citire, partajată de proprietar.',
  notFoundTitle: 'Raport indisponibil',
  notFound: 'Acest link de raport a expirat, a fost revocat sau nu a existat.',
  verifyTitle: 'Verificarea raportului',
  genuine: 'Raport autentic',
  genuineText:
    'Acest cod de verificare a fost emis de acest site pentru raportul de mai jos. Verificați că raportul tipărit arată același vehicul, aceeași dată și același kilometraj.',
  notGenuine: 'Raportul nu este autentic',
  notGenuineText:
    'Niciun raport nu a fost emis cu acest cod. Verificați dacă ați tastat corect codul; dacă este corect, raportul tipărit nu a fost emis de acest site.',
  odometerThen: 'Kilometraj la acea dată',
  verifyAnother: 'Verificați alt cod',
  check: 'Verifică',
  expires: 'Link valabil până la',
};

const es: Texts = {
  title: 'Informe de historial del vehículo',
  generated: 'Fecha del informe',
  vehicle: 'Vehículo',
  make: 'Marca y modelo',
  year: 'Año',
  fuel: 'Combustible',
  engine: 'Motor',
  registration: 'Matrícula',
  vin: 'Número de bastidor (VIN)',
  odometer: 'Kilometraje actual',
  owner: 'Propietario',
  fuelTypes: { PETROL: 'Gasolina', DIESEL: 'Diésel', GPL: 'GLP', ELECTRIC: 'Eléctrico', CNG: 'GNC' },
  services: 'Historial de revisiones',
  date: 'Fecha',
  km: 'Kilometraje',
  price: 'Precio',
  description: 'Descripción',
  noServices: 'No hay revisiones registradas.',
  insurance: 'Seguros y renovaciones',
  provider: 'Aseguradora',
  coverage: 'Cobertura',
  validity: 'Vigencia',
  noInsurance: 'No hay seguros registrados.',
  gap: (from, to, days) => `Sin seguro del ${from} al ${to} (${days} días)`,
  uninsured: (from, days) => `Sin seguro desde el ${from} (${days} días)`,
  noGaps: 'Sin interrupciones entre pólizas.',
  renewal: 'Renovación',
  document: 'Documento',
  number: 'Número',
  firstPages: 'Documentos: primera página',
  pdfNotEmbedded: 'PDF, no incluido en este informe.',
  renewalGap: (type, from, to, days) => `${type} sin vigencia del ${from} al ${to} (${days} días)`,
  renewalExpired: (type, from, days) => `${type} caducado: sin vigencia desde el ${from} (${days} días)`,
  fuelSection: 'Combustible',
  fillUps: 'Repostajes',
  distance: 'Distancia recorrida',
  kmRecorded: 'Kilómetros registrados',
  average: 'Consumo medio',
  lastYear: 'Últimos 12 meses',
  monthlyFuel: 'Gasto en combustible por mes',
  noFuel: 'No hay repostajes registrados.',
  byFuelNote:
    'Cada combustible sobre todos los km recorridos: el cuentakilómetros no dice con qué combustible se hicieron.',
  costs: 'Gastos',
  category: 'Categoría',
  categories: { fuel: 'Combustible', expenses: 'Otros gastos', insurance: 'Seguro', revisions: 'Revisiones' },
  total: 'Total',
  tco: 'Coste total de propiedad',
  perKm: 'Coste por km',
  noCosts: 'No hay gastos registrados.',
  odometerSection: 'Lecturas del cuentakilómetros',
  readings: 'lecturas',
  rollback: (km, date, before) => `Retroceso: ${km} el ${date}, por debajo de ${before} registrado antes`,
  noRollback: 'Ninguna lectura es inferior a una anterior.',
  noReadings: 'No hay lecturas del cuentakilómetros.',
  ai: 'Evaluación IA',
  score: 'Puntuación',
  page: (n, of) => `Página ${n} de ${of}`,
  footer: (at, code) => `Generado ${at} · Código de verificación ${code}`,
  verifyHint: (url) => `Compruebe la autenticidad del informe en ${url}`,
  download: 'Descargar PDF',
  code: 'Código de verificación',
  readOnly: 'Copia de solo lectura compartida por el propietario.',
  notFoundTitle: 'Informe no disponible',
  notFound: 'Este enlace del informe ha caducado, se ha revocado o no existe.',
  verifyTitle: 'Verificación del informe',
  genuine: 'Informe auténtico',
  genuineText:
    'Este código de verificación lo emitió este sitio para el informe siguiente. Compruebe que el informe impreso muestra el mismo vehículo, la misma fecha y el mismo kilometraje.',
  notGenuine: 'El informe no es auténtico',
  notGenuineText:
    'No se emitió ningún informe con este código. Revise si ha escrito bien el código; si es correcto, el informe impreso no lo emitió este sitio.',
  odometerThen: 'Kilometraje en esa fecha',
  verifyAnother: 'Comprobar otro código',
  check: 'Comprobar',
  expires: 'Enlace válido hasta',
};

export function reportTexts(lang: Language): Texts {
  return { en, ro, es }[lang];
}
export type ReportTexts = Texts;

const locales: Record<Language, string> = { en: 'en-GB', ro: 'ro-RO', es: 'es-ES' };

/**
 * Intl formatters for the language: numbers, the owner's money (issue 50: lei, €, £…), distances and
 * consumption in the owner's units, dates (UTC calendar days) and times. Without an owner: €, km, L/100km.
 */
export function formats(lang: Language, owner: MoneyAndUnits = EXISTING_USER_MONEY_AND_UNITS) {
  const locale = locales[lang];
  // useGrouping 'always': Spanish leaves 4-digit figures ungrouped (3016,00 € beside 46.944,00 €).
  const num = (digits: number) =>
    new Intl.NumberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: 'always',
    });
  const int = num(0);
  const one = num(1);
  const two = num(2);
  // narrowSymbol: Romanian would otherwise write "EUR" (as the web app's money format does); RON is lei.
  const money = groupedMoney(locale, owner.currency);
  const money3 = groupedMoney(locale, owner.currency, 3);
  const unit = owner.distanceUnit;
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const month = new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' });
  // A chart's month with its whole year: 'Dec 24' reads as the 24th of December.
  const monthYear = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  // Intl leaves 4-digit integers ungrouped in some locales (es: 4500); a km figure reads better grouped.
  const grouped = new Intl.NumberFormat(locale, { maximumFractionDigits: 0, useGrouping: 'always' });
  return {
    locale,
    int: (n: number) => int.format(n),
    one: (n: number) => one.format(n),
    two: (n: number) => two.format(n),
    /** A distance kept in km, in the owner's unit: `12.345 km`, `7,671 mi`. */
    km: (n: number) => `${grouped.format(Math.round(kmToDistance(n, unit)))} ${unit}`,
    money,
    /** A cost per km as a cost per the owner's distance unit. */
    moneyPerDistance: (perKm: number) => money3(unit === 'km' ? perKm : perKm / kmToDistance(1, unit)),
    /** A label that ends in "km" (Cost per km) with the owner's unit. */
    perDistance: (label: string) => label.replace(/km$/, unit),
    /** L/100km as before (kWh/100km stays), MPG or km/L in the owner's unit. */
    consumption: (n: number, fuelType: FuelType, metricSign: string) =>
      consumptionIn(
        n,
        fuelType,
        owner.consumptionUnit,
        (x, d) => (d === 1 ? one : two).format(x),
        metricSign,
      ),
    /** A calendar day 'YYYY-MM-DD'. */
    date: (iso: string) => day.format(new Date(`${iso}T00:00:00Z`)),
    month: (iso: string) => month.format(new Date(`${iso}T00:00:00Z`)),
    /** 'Dec 2024', 'dec. 2024', 'dic 2024'. */
    monthYear: (iso: string) => monthYear.format(new Date(`${iso}T00:00:00Z`)),
    time: (d: Date) => `${time.format(d)} UTC`,
  };
}
export type Formats = ReturnType<typeof formats>;

/** A gap between policies, or the current one (no policy since, up to the report date). */
export function gapText(
  t: Texts,
  f: Formats,
  g: { from: string; to: string; days: number; current: boolean },
) {
  return g.current
    ? t.uninsured(f.date(g.from), f.int(g.days))
    : t.gap(f.date(g.from), f.date(g.to), f.int(g.days));
}

/** A renewal's lapse: between two of its type, or since the last one ended (the day after its end). */
export function renewalGapText(
  t: Texts,
  f: Formats,
  lang: Language,
  g: { type: RenewalType; from: string; to: string; days: number; current: boolean },
) {
  const label = renewalLabel(g.type, lang);
  return g.current
    ? t.renewalExpired(label, f.date(g.from), f.int(g.days))
    : t.renewalGap(label, f.date(g.from), f.date(g.to), f.int(g.days));
}

type Costs = {
  totalFuelCost: number;
  totalRevisionCost: number;
  totalInsuranceCost: number;
  totalExpensesCost: number;
  totalCost: number;
};

/** The costs table's rows (year, fuel, services, insurance, expenses, total), then the totals row. */
export function costRows(t: Texts, f: Formats, years: [string, Costs][], total: Costs): string[][] {
  const row = (label: string, x: Costs) => [
    label,
    f.money(x.totalFuelCost),
    f.money(x.totalRevisionCost),
    f.money(x.totalInsuranceCost),
    f.money(x.totalExpensesCost),
    f.money(x.totalCost),
  ];
  return [...years.map(([year, x]) => row(year, x)), row(t.total, total)];
}

/**
 * A two-fuel vehicle's line per fuel (issue 51): its consumption over every km driven, what it cost
 * and how many fills (`LPG: 8.43 L/100km · 636.00 lei · 6 fill-ups`); none for a single-fuel vehicle.
 */
export function byFuelStats(m: { fuel: { byFuel: FuelSplit[] } }, f: Formats, t: Texts): [string, string][] {
  return m.fuel.byFuel.map((x) => [
    t.fuelTypes[x.fuelType],
    [
      x.per100km === null ? '—' : f.consumption(x.per100km, x.fuelType, `${x.unit}/100km`),
      f.money(x.cost),
      `${f.int(x.fills)} ${t.fillUps.toLocaleLowerCase(f.locale)}`,
    ].join(' · '),
  ]);
}
