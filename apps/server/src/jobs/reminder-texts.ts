import {
  type DistanceUnitCode,
  type Language,
  REVISION_INTERVAL_KM,
  type RenewalType,
  renewalLabel,
} from '@evdra/domain';
import { METRIC_UNITS, readerFormat } from '../lib/reader-format.js';

type Vehicle = { make: string; model: string; registrationNumber: string };
const name = (v: Vehicle) => `${v.make} ${v.model} (${v.registrationNumber})`;

/** Insurance reminder in the owner's language; `days` is 30, 7, 1 or 0 (the day it ends). */
export function insuranceReminder(
  lang: Language,
  v: Vehicle,
  provider: string,
  endDate: string,
  days: number,
) {
  const t = {
    en: {
      title:
        days === 0
          ? 'Insurance ends today'
          : days === 1
            ? 'Insurance ends tomorrow'
            : `Insurance ends in ${days} days`,
      content: `The ${provider} policy of your ${name(v)} ends on ${endDate}. Renew it to stay covered.`,
    },
    ro: {
      title:
        days === 0
          ? 'Asigurarea expiră azi'
          : days === 1
            ? 'Asigurarea expiră mâine'
            : `Asigurarea expiră în ${days} zile`,
      content: `Polița ${provider} pentru ${name(v)} expiră pe ${endDate}. Reînnoiește-o ca să rămâi asigurat.`,
    },
    es: {
      title:
        days === 0
          ? 'El seguro vence hoy'
          : days === 1
            ? 'El seguro vence mañana'
            : `El seguro vence en ${days} días`,
      content: `La póliza de ${provider} de tu ${name(v)} vence el ${endDate}. Renuévala para seguir cubierto.`,
    },
  };
  return t[lang];
}

/**
 * Service reminder; `days` is 30, 7 or 0 (due now, by date or by km). The interval is written in the
 * recipient's distance unit (15,000 km, 9,321 mi).
 */
export function revisionReminder(
  lang: Language,
  v: Vehicle,
  dueDate: string,
  days: number,
  byKm: boolean,
  distanceUnit: DistanceUnitCode = 'km',
) {
  const interval = readerFormat(lang, 'EUR', { ...METRIC_UNITS, distanceUnit }).km(REVISION_INTERVAL_KM);
  const t = {
    en: {
      title: days === 0 ? 'Service due now' : `Service due in ${days} days`,
      content: byKm
        ? `Your ${name(v)} has driven ${interval} since its last service: time for the next one.`
        : `Your ${name(v)} is due for a service on ${dueDate}.`,
    },
    ro: {
      title: days === 0 ? 'Revizia este scadentă' : `Revizie scadentă în ${days} zile`,
      content: byKm
        ? `${name(v)} a parcurs ${interval} de la ultima revizie: e timpul pentru următoarea.`
        : `${name(v)} are revizia scadentă pe ${dueDate}.`,
    },
    es: {
      title: days === 0 ? 'Revisión pendiente' : `Revisión en ${days} días`,
      content: byKm
        ? `Tu ${name(v)} ha recorrido ${interval} desde su última revisión: toca la siguiente.`
        : `Tu ${name(v)} tiene la revisión prevista el ${dueDate}.`,
    },
  };
  return t[lang];
}

/** Renewal expiry reminder (RCA, ITP, rovinietă, ITV…); `days` is 30, 7, 1 or 0 (its last valid day). */
export function renewalReminder(
  lang: Language,
  v: Vehicle,
  type: RenewalType,
  validUntil: string,
  days: number,
) {
  const label = renewalLabel(type, lang);
  const t = {
    en: {
      title:
        days === 0
          ? `${label} expires today`
          : days === 1
            ? `${label} expires tomorrow`
            : `${label} expires in ${days} days`,
      content: `${label} of your ${name(v)} is valid until ${validUntil}. Renew it in time.`,
    },
    ro: {
      title:
        days === 0
          ? `${label} expiră azi`
          : days === 1
            ? `${label} expiră mâine`
            : `${label} expiră în ${days} ${days >= 20 ? 'de zile' : 'zile'}`,
      content: `${label} pentru ${name(v)} este valabilă până pe ${validUntil}. Reînnoiește la timp.`,
    },
    es: {
      title:
        days === 0
          ? `${label} vence hoy`
          : days === 1
            ? `${label} vence mañana`
            : `${label} vence en ${days} días`,
      content: `${label} de tu ${name(v)} es válido hasta el ${validUntil}. Renuévalo a tiempo.`,
    },
  };
  return t[lang];
}
