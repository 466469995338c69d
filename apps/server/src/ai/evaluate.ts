import type { CurrencyCode, FuelType, Language } from '@evdra/domain';
import type { BasisFactor, EvaluationBasis } from './basis.js';
import type { VehicleFacts } from './facts.js';
import { type Fmt, formatter } from './format.js';
import type { Evaluation } from './provider.js';

/** Typical distance a car covers in a year. */
export const TYPICAL_KM_PER_YEAR = 15_000;
/** Fewer records than this: the score is capped (conservative) and the reason says so. */
export const FEW_RECORDS = 5;
const BASE = 7;
const FEW_RECORDS_CAP = 6;
/** Cost per km is judged only over at least this distance (fixed costs dominate short spans). */
const MIN_KM_FOR_COST = 5000;

type Texts = {
  age: (years: number, d: number) => string;
  /** The distance a year and the typical one, with their unit (`12,000 km`, `7,456 mi`). */
  km: (perYear: string, typical: string, d: number) => string;
  serviced: (km: string, days: string, d: number) => string;
  oneService: (date: string) => string;
  noService: () => string;
  /** avg and typical with their unit (`6,50 L/100 km`, `36.2 mpg`). */
  consumption: (avg: string, typical: string, d: number) => string;
  insured: (gaps: number, covered: boolean) => string;
  costPerKm: (perKm: string, unit: string, d: number) => string;
  few: (n: number) => string;
};

const sign = (d: number, good: string, bad: string, neutral: string) =>
  d > 0 ? good : d < 0 ? bad : neutral;

const TEXTS: Record<Language, Texts> = {
  en: {
    age: (y, d) => `${sign(d, 'Young car', 'Older car', 'Middle-aged car')}: ${y} years old.`,
    km: (k, typical, d) =>
      `Driven about ${k} a year, ${sign(d, 'below', 'above', 'close to')} the typical ${typical}.`,
    serviced: (km, days, d) =>
      `Serviced every ${km} on average (every ${days} days), ${sign(d, 'regularly', 'less often than the 15,000 km / 12 months advised', 'about as advised')}.`,
    oneService: (date) => `Only one service on record (${date}); regularity cannot be judged yet.`,
    noService: () => 'No service on record.',
    consumption: (avg, typ, d) =>
      `Real consumption ${avg} against about ${typ} typical for its fuel and engine (${sign(d, 'better than usual', 'higher than usual', 'normal')}).`,
    insured: (gaps, covered) =>
      `${covered ? 'Insured today' : 'Not insured today'}${gaps > 0 ? `, with ${gaps} gap(s) between policies` : ', no gaps between policies'}.`,
    costPerKm: (c, unit, d) =>
      `Costs ${c} per ${unit} (${sign(d, 'cheap to run', 'expensive to run', 'average')}).`,
    few: (n) =>
      `Only ${n} record(s) so far, so the score is conservative; add fuel, services and insurance for a fuller evaluation.`,
  },
  ro: {
    age: (y, d) => `${sign(d, 'Mașină nouă', 'Mașină mai veche', 'Mașină de vârstă medie')}: ${y} ani.`,
    km: (k, typical, d) =>
      `Rulează circa ${k} pe an, ${sign(d, 'sub', 'peste', 'aproape de')} media obișnuită de ${typical}.`,
    serviced: (km, days, d) =>
      `Revizie în medie la fiecare ${km} (la ${days} zile), ${sign(d, 'regulat', 'mai rar decât intervalul recomandat de 15.000 km / 12 luni', 'cam cum se recomandă')}.`,
    oneService: (date) =>
      `O singură revizie înregistrată (${date}); regularitatea nu poate fi încă apreciată.`,
    noService: () => 'Nicio revizie înregistrată.',
    consumption: (avg, typ, d) =>
      `Consum real ${avg} față de circa ${typ} obișnuit pentru combustibilul și motorul ei (${sign(d, 'mai bun decât de obicei', 'mai mare decât de obicei', 'normal')}).`,
    insured: (gaps, covered) =>
      `${covered ? 'Asigurată azi' : 'Neasigurată azi'}${gaps > 0 ? `, cu ${gaps} întrerupere(i) între polițe` : ', fără întreruperi între polițe'}.`,
    costPerKm: (c, unit, d) =>
      `Costă ${c} pe ${unit} (${sign(d, 'ieftină de întreținut', 'scumpă de întreținut', 'în medie')}).`,
    few: (n) =>
      `Doar ${n} înregistrare(ări) până acum, deci scorul este prudent; adăugați alimentări, revizii și asigurări pentru o evaluare completă.`,
  },
  es: {
    age: (y, d) => `${sign(d, 'Coche joven', 'Coche más antiguo', 'Coche de edad media')}: ${y} años.`,
    km: (k, typical, d) =>
      `Recorre unos ${k} al año, ${sign(d, 'por debajo de', 'por encima de', 'cerca de')} los ${typical} habituales.`,
    serviced: (km, days, d) =>
      `Mantenimiento cada ${km} de media (cada ${days} días), ${sign(d, 'con regularidad', 'con menos frecuencia que los 15.000 km / 12 meses recomendados', 'más o menos lo recomendado')}.`,
    oneService: (date) =>
      `Solo un mantenimiento registrado (${date}); todavía no se puede valorar la regularidad.`,
    noService: () => 'Ningún mantenimiento registrado.',
    consumption: (avg, typ, d) =>
      `Consumo real de ${avg} frente a unos ${typ} habituales para su combustible y motor (${sign(d, 'mejor de lo normal', 'más alto de lo normal', 'normal')}).`,
    insured: (gaps, covered) =>
      `${covered ? 'Asegurado hoy' : 'Sin seguro hoy'}${gaps > 0 ? `, con ${gaps} interrupción(es) entre pólizas` : ', sin interrupciones entre pólizas'}.`,
    costPerKm: (c, unit, d) =>
      `Cuesta ${c} por ${unit} (${sign(d, 'barato de mantener', 'caro de mantener', 'en la media')}).`,
    few: (n) =>
      `Solo ${n} registro(s) por ahora, así que la puntuación es prudente; añade repostajes, mantenimientos y seguros para una evaluación completa.`,
  },
};

/** The rubric's factors for a vehicle, each with its points and its numbers. */
export function factors(f: VehicleFacts): BasisFactor[] {
  const out: BasisFactor[] = [];
  const age = f.ageYears;
  const ageD = age <= 3 ? 1 : age <= 8 ? 0 : age <= 14 ? -1 : -2;
  out.push({ key: 'age', delta: ageD, years: age });

  if (f.vehicle.odometer > 0) {
    const k = f.kmPerYear;
    const d = k <= 10_000 ? 0.5 : k <= 20_000 ? 0 : k <= 30_000 ? -0.5 : -1;
    out.push({ key: 'km', delta: d, perYear: k });
  }

  const s = f.service;
  if (s.count >= 2 && s.avgIntervalKm !== null && s.avgIntervalDays !== null) {
    const km = s.avgIntervalKm;
    const days = s.avgIntervalDays;
    const d = km <= 15_000 && days <= 400 ? 1 : km <= 20_000 && days <= 550 ? 0 : -1;
    out.push({ key: 'service', delta: d, km, days });
  } else if (s.count === 1 && s.last) {
    out.push({ key: 'oneService', delta: 0, date: s.last.date });
  } else if (age >= 2) {
    out.push({ key: 'noService', delta: -1 });
  }

  const fu = f.fuel;
  if (fu.measured >= 2 && fu.avgConsumption !== null) {
    const ratio = fu.avgConsumption / fu.typicalConsumption;
    const d = ratio <= 0.95 ? 0.5 : ratio <= 1.15 ? 0 : ratio <= 1.35 ? -0.5 : -1;
    out.push({ key: 'consumption', delta: d, avg: fu.avgConsumption, typical: fu.typicalConsumption });
  }

  if (f.insurance.count > 0) {
    const covered = f.insurance.current !== null;
    const d = (covered ? 0.5 : -0.5) - (f.insurance.gaps > 0 ? 0.5 : 0);
    out.push({ key: 'insurance', delta: d, gaps: f.insurance.gaps, covered });
  }

  if (f.costs.costPerKm !== null && f.costs.km >= MIN_KM_FOR_COST) {
    const c = f.costs.costPerKm;
    const d = c <= 0.15 ? 0.5 : c <= 0.3 ? 0 : -0.5;
    out.push({ key: 'costPerKm', delta: d, perKm: c });
  }
  return out;
}

/** A factor's sentence; `fmt` in the currency its money is in. */
function sentence(x: BasisFactor, t: Texts, fmt: Fmt, fuelType: FuelType): string {
  switch (x.key) {
    case 'age':
      return t.age(x.years, x.delta);
    case 'km':
      return t.km(fmt.km(x.perYear), fmt.km(TYPICAL_KM_PER_YEAR), x.delta);
    case 'service':
      return t.serviced(fmt.km(x.km), fmt.int(x.days), x.delta);
    case 'oneService':
      return t.oneService(fmt.date(x.date));
    case 'noService':
      return t.noService();
    case 'consumption':
      return t.consumption(fmt.consumption(x.avg, fuelType), fmt.consumption(x.typical, fuelType), x.delta);
    case 'insurance':
      return t.insured(x.gaps, x.covered);
    case 'costPerKm':
      return t.costPerKm(fmt.moneyPerDistance(x.perKm), fmt.distanceSign, x.delta);
  }
}

/**
 * The reason of an evaluation from its basis, in `lang` with `fmt`'s units; `fmt`'s currency must be
 * the one the basis's money is in (basisInCurrency converts it first).
 */
export function reasonText(basis: EvaluationBasis, lang: Language, fmt: Fmt): string {
  const t = TEXTS[lang];
  const parts = basis.factors.map((x) => sentence(x, t, fmt, basis.fuelType));
  if (basis.few !== null) parts.push(t.few(basis.few));
  return parts.join(' ');
}

/**
 * The basis with its money in `currency` at `rate` (units of `currency` for one of the basis's),
 * rounded as the facts round a cost per km (3 decimals: FactsRepo's inCurrency).
 */
export function basisInCurrency(
  basis: EvaluationBasis,
  currency: CurrencyCode,
  rate: number,
): EvaluationBasis {
  return {
    ...basis,
    currency,
    factors: basis.factors.map((x) =>
      x.key === 'costPerKm' ? { ...x, perKm: Math.round(x.perKm * rate * 1000) / 1000 } : x,
    ),
  };
}

/**
 * The built-in evaluation: a transparent rubric starting at 7 (age, km per year, service
 * regularity, real consumption, insurance continuity, cost per km), rounded to a whole 1–10.
 * With fewer than 5 records the score is capped at 6. The reason names the 2–4 factors that
 * moved the score most, with their numbers; its basis keeps them, for other readers (issue 50).
 */
export function evaluate(f: VehicleFacts, lang: Language): Evaluation {
  const all = factors(f);
  let raw = BASE + all.reduce((s, x) => s + x.delta, 0);
  const few = f.records.total < FEW_RECORDS;
  if (few) raw = Math.min(raw, FEW_RECORDS_CAP);
  const score = Math.max(1, Math.min(10, Math.round(raw)));
  const ranked = [...all].sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta));
  const moved = ranked.filter((x) => x.delta !== 0).slice(0, 4);
  const shown = moved.length >= 2 ? moved : ranked.slice(0, Math.max(2, moved.length));
  const basis: EvaluationBasis = {
    v: 1,
    currency: f.currency ?? 'EUR',
    fuelType: f.vehicle.fuelType,
    factors: shown,
    few: few ? f.records.total : null,
  };
  return { score, reason: reasonText(basis, lang, formatter(lang, f)), basis };
}
