/** The preview's warnings as sentences in the user's language (en, ro, es). */
import type { Language } from '@evdra/domain';
import type { RawWarning } from './draft.js';

const km = (lang: Language, n: unknown) =>
  `${Number(n).toLocaleString(lang === 'en' ? 'en-GB' : lang === 'ro' ? 'ro-RO' : 'es-ES')} km`;
const num = (lang: Language, n: unknown) =>
  Number(n).toLocaleString(lang === 'en' ? 'en-GB' : lang === 'ro' ? 'ro-RO' : 'es-ES', {
    maximumFractionDigits: 3,
  });

/** A preview warning in the user's saved language (as the reminder texts are). */
export function warningMessage(lang: Language, w: RawWarning): string {
  const p = w.params ?? {};
  switch (w.code) {
    case 'TOTAL_MISMATCH':
      return {
        en: `Litres × price per litre (${num(lang, p.liters)} × ${num(lang, p.pricePerLiter)}) does not match the total paid (${num(lang, p.total)}). Check the three numbers.`,
        ro: `Litri × preț pe litru (${num(lang, p.liters)} × ${num(lang, p.pricePerLiter)}) nu se potrivește cu totalul plătit (${num(lang, p.total)}). Verifică cele trei valori.`,
        es: `Litros × precio por litro (${num(lang, p.liters)} × ${num(lang, p.pricePerLiter)}) no coincide con el total pagado (${num(lang, p.total)}). Revisa los tres valores.`,
      }[lang];
    case 'DATE_IN_FUTURE':
      return {
        en: `The date ${p.date} is in the future.`,
        ro: `Data ${p.date} este în viitor.`,
        es: `La fecha ${p.date} está en el futuro.`,
      }[lang];
    case 'ODOMETER_BELOW_LAST':
      return {
        en: `${km(lang, p.value)} is lower than the vehicle's last known reading of ${km(lang, p.last)}.`,
        ro: `${km(lang, p.value)} este mai puțin decât ultimul kilometraj cunoscut al vehiculului, ${km(lang, p.last)}.`,
        es: `${km(lang, p.value)} es menos que la última lectura conocida del vehículo, ${km(lang, p.last)}.`,
      }[lang];
    case 'END_BEFORE_START':
      return {
        en: 'The end date is before the start date.',
        ro: 'Data de sfârșit este înaintea datei de început.',
        es: 'La fecha de fin es anterior a la de inicio.',
      }[lang];
    case 'DERIVED':
      return {
        en: 'Not printed on the receipt: calculated from the other numbers.',
        ro: 'Nu apare pe bon: calculat din celelalte valori.',
        es: 'No figura en el recibo: calculado a partir de los demás valores.',
      }[lang];
    case 'VAT_MISMATCH':
      return {
        en: `The amount before VAT plus the VAT (${num(lang, p.net)} + ${num(lang, p.vat)}) does not match the total (${num(lang, p.total)}). Check the total.`,
        ro: `Valoarea fără TVA plus TVA (${num(lang, p.net)} + ${num(lang, p.vat)}) nu se potrivește cu totalul (${num(lang, p.total)}). Verifică totalul.`,
        es: `La base imponible más el IVA (${num(lang, p.net)} + ${num(lang, p.vat)}) no coincide con el total (${num(lang, p.total)}). Revisa el total.`,
      }[lang];
    case 'INSTALMENTS_MISMATCH':
      return {
        en: `The instalments add up to ${num(lang, p.sum)}, not to the premium read (${num(lang, p.premium)}). Check the premium.`,
        ro: `Ratele însumează ${num(lang, p.sum)}, nu prima citită (${num(lang, p.premium)}). Verifică prima.`,
        es: `Los plazos suman ${num(lang, p.sum)}, no la prima leída (${num(lang, p.premium)}). Revisa la prima.`,
      }[lang];
    case 'TERM_MISMATCH':
      return {
        en: `From ${p.start} to ${p.end} is not a whole number of months, as a policy's term is. Check both dates.`,
        ro: `De la ${p.start} la ${p.end} nu este un număr întreg de luni, cum este perioada unei polițe. Verifică ambele date.`,
        es: `Del ${p.start} al ${p.end} no es un número entero de meses, como el plazo de una póliza. Revisa ambas fechas.`,
      }[lang];
    case 'NOTHING_FOUND':
      return {
        en: 'Nothing could be read from this receipt. Fill in the fields by hand.',
        ro: 'Nu s-a putut citi nimic de pe acest bon. Completează câmpurile manual.',
        es: 'No se pudo leer nada de este recibo. Rellena los campos a mano.',
      }[lang];
  }
}
