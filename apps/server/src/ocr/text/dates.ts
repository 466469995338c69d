/** Dates in every way receipts print them (and the OCR misreads them): numeric, month names, glued. */
import { every } from '../lexicon/index.js';
import { aLetterInThreeOff, oneEditApart } from './fuzzy.js';

/** Every language's month names and short forms → the month's number. */
const MONTHS: Record<string, number> = {};
for (let m = 1; m <= 12; m++) for (const w of every((l) => l.months[m - 1] ?? [])) MONTHS[w] = m;
const MONTH_RE = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

/**
 * A month's name the OCR read with one letter lost or changed ("februare", "apriie", "Soptomber"),
 * for names of six letters and more: the name itself. Other words are left alone.
 */
const LONG_MONTHS = Object.keys(MONTHS).filter((w) => w.length >= 6);
/** Whether a word is a month's name, as printed or (six letters and more) one letter off. */
const isMonthWord = (w: string) => Boolean(MONTHS[w]) || LONG_MONTHS.some((m) => oneEditApart(w, m));
/**
 * The "de" of a Spanish long date as the OCR reads it off faded print ("26 dre agosto de 2023",
 * "9 d marzo 2025", "1 de mayo dle 2024"): a word of three letters or fewer one letter off DE,
 * between a day and a month's name or between the month and the year, is DE.
 */
function fixDeWords(norm: string): string {
  const de = (w: string) => (w !== 'DE' && oneEditApart(w, 'DE') ? 'DE' : w);
  return norm.replace(
    /(?<!\d)(\d{1,2}\s*)(?:([A-Z]{1,3})\s+)?([A-Z]{3,10})(?:(\s*)([A-Z]{1,3}))?(?=\s*(?:19|20)\d{2}(?!\d))/g,
    (
      all,
      day: string,
      a: string | undefined,
      month: string,
      sp: string | undefined,
      b: string | undefined,
    ) =>
      isMonthWord(month) && (a || b)
        ? `${day}${a ? `${de(a)} ` : ''}${month}${b ? `${sp ?? ''}${de(b)}` : ''}`
        : all,
  );
}
export function fixMonthNames(norm: string): string {
  // Only between a day and a year ("26 februare 2024", "10 de setiembe de 2025").
  return norm
    .replace(/(?<=\d[\s./-]*(?:DE\s*)?)[A-Z]{5,10}(?=[\s./,-]*(?:DE\s*)?\d)/g, (w) =>
      MONTHS[w] ? w : (LONG_MONTHS.find((m) => oneEditApart(w, m)) ?? farLongMonth(w) ?? w),
    )
    .replace(/(?<=(?<!\d)\d{1,2}[\s./-]*)[A-Z0-9]{3}(?=[\s./,-]*\d{2})/g, misreadShortMonth)
    .replace(/(?<=(?<![\d.,/-])\d{1,2}[-/])[A-Z]{2}(?=[-/]\d{2})/g, firstLetterLost);
}

/**
 * "25 tebruane 2024" (februarie): a word of seven letters or more between a day and a year, up to
 * a letter in three off the long names of exactly one month (its names in every language).
 */
function farLongMonth(w: string): string | undefined {
  if (w.length < 7) return undefined;
  const near = LONG_MONTHS.filter((m) => m.length >= 7 && aLetterInThreeOff(m, w));
  return new Set(near.map((m) => MONTHS[m])).size === 1 ? near[0] : undefined;
}

/**
 * "12-AN-2023", "07/EB/24": a short month whose first letter faded, between a day and a year with
 * dashes or slashes: the month whose short names end so (each two last letters name one month).
 */
function firstLetterLost(w: string): string {
  const months = new Set(SHORT_MONTHS.filter((m) => m.endsWith(w)).map((m) => MONTHS[m]));
  return months.size === 1 ? (SHORT_MONTHS.find((m) => m.endsWith(w)) ?? w) : w;
}

/** Digits the OCR reads for a month's letters ("FE8" for FEB, "AU6" for AUG). */
const LETTER_FOR: Record<string, string> = { '0': 'O', '1': 'I', '5': 'S', '6': 'G', '8': 'B' };

/** Letters the OCR reads for one another on a faded receipt ("OCT" as "OCI", "JUN" as "JUH"). */
const LOOKALIKE: Record<string, string> = {
  I: 'TLJ',
  L: 'IT',
  T: 'I',
  U: 'VN',
  V: 'U',
  H: 'NM',
  N: 'H',
  G: 'C',
  C: 'G',
  D: 'O',
  Q: 'O',
};
const SHORT_MONTHS = Object.keys(MONTHS).filter((w) => w.length === 3);
/**
 * A three-letter month the OCR read with one letter changed for a look-alike ("10 0CI 2017": OCT),
 * between a day and a year: the month, when exactly one month is that one letter away.
 */
function misreadShortMonth(w: string): string {
  if (MONTHS[w]) return w;
  // One digit among two letters: its look-alike letter, if that makes a month.
  if (/\d/.test(w)) {
    const lettered = w.replace(/\d/, (c) => LETTER_FOR[c] ?? c);
    return /^[A-Z]{3}$/.test(lettered) && (w.match(/\d/g) ?? []).length === 1
      ? misreadShortMonth(lettered)
      : w;
  }
  const found = new Set<string>();
  for (let i = 0; i < 3; i++)
    for (const c of LOOKALIKE[w[i] ?? ''] ?? '') {
      const m = w.slice(0, i) + c + w.slice(i + 1);
      if (SHORT_MONTHS.includes(m)) found.add(m);
    }
  return found.size === 1 ? ([...found][0] ?? w) : w;
}

const YEAR_THEN_DAY = new RegExp(`((?:19|20)\\d{2})(?=\\d{1,2}\\s*(?:DE\\s*)?(?:${MONTH_RE}))`, 'g');

const YEAR_AFTER_MONTH = new RegExp(
  `(?<=\\b(?:${MONTH_RE})[\\s./,-]*)(?:19|20)(?=[\\dA-Z]{2}(?![\\dA-Z]))(?:\\d[ILSBZ]|[ILSBZ]\\d)`,
  'g',
);
const ZERO_AFTER_MONTH = new RegExp(
  `(?<=(?<!\\d)\\d{1,2}[\\s./-]*(?:DE\\s*)?(?:${MONTH_RE})[\\s./,-]*(?:DE\\s*)?)2[689](?=[0-2]\\d(?![\\d.,]))`,
  'g',
);
/** A date label right before a date ("Fecha:2704/25"): the labels of every language. */
const DATE_LABELS = every((l) => l.dateLabel).join('|');
const DAY_JUNK_MONTH = new RegExp(
  `(?<=(?<!\\d)\\d{1,2})[A-Z](?=(?:${MONTH_RE})([-/])(?:19|20)\\d{2}(?!\\d))`,
  'g',
);

const pad = (n: number) => String(n).padStart(2, '0');
function iso(y: number, m: number, d: number): string | null {
  if (y < 100) y += 2000;
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1990 || y > 2100) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** A date, where it starts in `line`: the line as the dates were read from it (misreads mended). */
export type FoundDate = { iso: string; at: number; line: string };

/** Letters the OCR reads for digits: C, D, O, Q, U for 0, I and L for 1, Z for 2, S for 5, G for 6, B for 8. */
const DIGIT_FOR: Record<string, string> = {
  C: '0',
  D: '0',
  O: '0',
  Q: '0',
  U: '0',
  I: '1',
  L: '1',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
};
/** A date-shaped token with one digit read as a letter ("28/C6/2018"): the digit back; others as they are. */
function digitsForLetters(token: string): string {
  const letters = token.match(/[A-Z]/g) ?? [];
  const letter = letters[0] ?? '';
  if (letters.length !== 1 || !DIGIT_FOR[letter] || (token.match(/\d/g) ?? []).length < 5) return token;
  return token.replace(letter, DIGIT_FOR[letter] ?? letter);
}

/**
 * Every date on a (normalised) line: yyyy-mm-dd, dd.mm.yyyy, dd/mm/yy, dd-mm-yyyy, "1 mai 2024",
 * "12 de marzo de 2025", "05-Jan-2017", "30 Dec 17", "Sep 20, 2025". Day first unless that is impossible (US 12/31/2025).
 */
export function findDates(norm: string): FoundDate[] {
  const out: Omit<FoundDate, 'line'>[] = [];
  const s = fixMonthNames(
    fixDeWords(norm)
      .replace(/(?<=\d)O(?=\d)/g, '0') // "2O25": the OCR's O for a zero inside a number
      // "8 0ct0mbrie", "febrer0": a zero for an O inside a month's name.
      .replace(/(?<=[A-Z])0(?!\d)|(?<![\dA-Z])0(?=[A-Z]{2})/g, 'O')
      // "26februare2024": a day and a year glued to a month's name.
      .replace(/(?<=\d)(?=[A-Z]{5,10}\d)|(?<=\d[A-Z]{5,10})(?=\d)/g, ' ')
      // "...DE20254DEMARZO...": a year glued to the next date's day and month.
      .replace(YEAR_THEN_DAY, '$1 '),
  )
    // "28/C6/2018", "1I/06/2018": one digit of a dd/mm/yyyy read as a look-alike letter.
    .replace(
      /(?<![\w.,])[\dA-Z]{1,2}([./-])[\dA-Z]{1,2}\1(?:[\dA-Z]{4}|[\dA-Z]{2})(?![\w.,])/g,
      digitsForLetters,
    )
    // "05--03-2018": a separator printed (or read) twice.
    .replace(/(?<=(?<![\d.,])\d{1,2})([./-])\1(?=\d{1,2}[./-]\d{2})/g, '$1')
    // "19/05;16", "19;05/2016": one separator of a date read as a semicolon.
    .replace(/(?<![\d.,;])(\d{1,2})([./-])(\d{1,2});(?=\d{2}(?:\d{2})?(?![\d.,;]))/g, '$1$2$3$2')
    .replace(/(?<![\d.,;])(\d{1,2});(\d{1,2})([./-])(?=\d{2}(?:\d{2})?(?![\d.,;]))/g, '$1$3$2$3')
    // "18 MAR 20I8": a letter for a digit in the year after a month's name.
    .replace(YEAR_AFTER_MONTH, (y) => y.replace(/[A-Z]/g, (c) => DIGIT_FOR[c] ?? c))
    // "17 de febrero de 2923": the year's zero read as a 6, 8 or 9 after a month's name too.
    .replace(ZERO_AFTER_MONTH, '20')
    // "14AMAY/2017": the separator between the day and the month read as a letter.
    .replace(DAY_JUNK_MONTH, (_, sep: string) => sep)
    // "28/09/2817", "27/03/2918", "17/06/2C18": the year's zero read as a 6, 8, 9 or a letter (no
    // year 29xx on a receipt).
    .replace(
      /(?<=(?<![\d.,])\d{1,2}(?:\/\d{1,2}\/|-\d{1,2}-|\.\d{1,2}\.))2[689CDQU](?=[0-2]\d(?![\d.,]))/g,
      '20',
    )
    // "09-AUG-20231:02": a year glued to a time whose hour has one digit.
    .replace(/(?<!\d)((?:19|20)\d{2})(?=\d:\d{2}(?!\d))/g, '$1 ')
    // "13/12/202319:36", "2023-12-1115:00": PaddleOCR glues the time (hh:mm) to the date.
    .replace(/(?<=\d)(?=\d{2}:\d{2}(?!\d))/g, ' ')
    // "01/09/2624.00": dd/mm/yy glued to a time read with a point (24:00), when that is no year.
    .replace(
      /(?<![\d.,])(\d{1,2}([./-])\d{1,2}\2\d{2})(?=(?:[01]\d|2[0-4])[.:][0-5]\d(?![\d.,]))(?<!(?:19|20)\d{0,2})/g,
      '$1 ',
    )
    .replace(/(?<=\d)\s*([./-])\s*(?=\d)/g, '$1')
    // "27.02 2026", "28 08.2025": one separator read as a space, the other kept.
    .replace(/(?<![\d.,/-])(\d{1,2})([./-])(\d{1,2}) ((?:19|20)\d{2})(?![\d.,]*\d)/g, '$1$2$3$2$4')
    .replace(/(?<![\d.,/-])(\d{1,2}) (\d{1,2})([./-])((?:19|20)\d{2})(?![\d.,]*\d)/g, '$1$3$2$3$4')
    // "05- Jan-2017": PaddleOCR's space beside a dash next to a month name.
    .replace(/(?<=\d)\s*([-/])\s*(?=[A-Z]{3})|(?<=\b[A-Z]{3})\s*([-/])\s*(?=\d)/g, (_, a, b) => a ?? b);
  for (const m of s.matchAll(/(?<!\d)(\d{4})[./-](\d{1,2})[./-](\d{1,2})(?!\d)/g)) {
    const d = iso(Number(m[1]), Number(m[2]), Number(m[3]));
    if (d) out.push({ iso: d, at: m.index ?? 0 });
  }
  for (const m of s.matchAll(/(?<![\d.,])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d.,]*\d)/g)) {
    // A two-digit year right after "11/" ("MI11/3-21 - 12/480"): a product code, its spaces taken out above.
    const before = s.slice(0, m.index ?? 0);
    if (m[4]?.length === 2 && /\d[./-]$/.test(before) && !/\d{1,2}([./-])\d{1,2}\1\d{2,4}-$/.test(before))
      continue;
    const a = Number(m[1]);
    const b = Number(m[3]);
    const y = Number(m[4]);
    const d = iso(y, b, a) ?? iso(y, a, b);
    if (d) out.push({ iso: d, at: m.index ?? 0 });
  }
  // "26/032024", "2503/2025": dd/mm/yyyy whose one separator the OCR lost (only when nothing else matched there).
  for (const m of s.matchAll(
    /(?<![\d.,/-])(\d{2})(?:[./-](\d{2})((?:19|20)\d{2})|(\d{2})[./-]((?:19|20)\d{2}))(?![\d.,]*\d)/g,
  )) {
    const at = m.index ?? 0;
    if (out.some((o) => o.at === at)) continue;
    const d = iso(Number(m[3] ?? m[5]), Number(m[2] ?? m[4]), Number(m[1]));
    if (d) out.push({ iso: d, at });
  }
  // "24/07:2017", "24-07/2017": dd/mm/yyyy with its two separators read differently, one maybe a
  // colon (only a four-digit year, only when nothing else matched there).
  for (const m of s.matchAll(
    /(?<![\d.,/-])(?<!\d:)(\d{1,2})([./:-])(\d{1,2})(?!\2)([./:-])((?:19|20)\d{2})(?![\d.,]*\d)/g,
  )) {
    const at = m.index ?? 0;
    if (out.some((o) => o.at === at) || (m[2] === ':' && m[4] === ':')) continue;
    const d = iso(Number(m[5]), Number(m[3]), Number(m[1]));
    if (d) out.push({ iso: d, at });
  }
  // "Order No. 100007017/04/2018": dd/mm/yyyy glued to the number before it (a code's date to
  // inCode: used only when the receipt has no other date).
  for (const m of s.matchAll(/(?<=\d)(\d{2})([./-])(\d{1,2})\2((?:19|20)\d{2})(?![\d.,]*\d)/g)) {
    const at = m.index ?? 0;
    if (out.some((o) => Math.abs(o.at - at) < 3)) continue;
    const d = iso(Number(m[4]), Number(m[3]), Number(m[1]));
    if (d) out.push({ iso: d, at });
  }
  // "Effective date.27072024", "Expiry date 26 072025": dd mm yyyy with both separators lost (or one
  // a space), only right after a word (a label), never inside a longer number.
  for (const m of s.matchAll(
    /(?<=^|[A-Z][.:]?\s?|\s{3})(?<!\b(?:NR|NO|N|NUM|NUMAR|NUMERO|CUI|CIF|NIF|TEL|REF|CODE?)[.:]?\s?)(\d{2})\s?(\d{2})\s?((?:19|20)\d{2})(?![\d.,/-])/g,
  )) {
    const at = m.index ?? 0;
    if (out.some((o) => Math.abs(o.at - at) < 3)) continue;
    const d = iso(Number(m[3]), Number(m[2]), Number(m[1]));
    if (d) out.push({ iso: d, at });
  }
  // "Data 09 12 25": dd mm yy with both separators read as spaces, only right after a date label.
  for (const m of s.matchAll(
    new RegExp(`(?<=\\b(?:${DATE_LABELS})[.:]?\\s?)(\\d{2}) (\\d{2}) (\\d{2})(?![\\d.,:])`, 'g'),
  )) {
    const at = m.index ?? 0;
    if (out.some((o) => Math.abs(o.at - at) < 3)) continue;
    const d = iso(Number(m[3]), Number(m[2]), Number(m[1]));
    if (d) out.push({ iso: d, at });
  }
  // "Fecha:2704/25": dd mm/yy with the first separator lost, only right after a date label.
  for (const m of s.matchAll(
    new RegExp(
      `(?<=\\b(?:${DATE_LABELS})[.:]?\\s?)(\\d{2})(\\d{2})[./-](\\d{2}|(?:19|20)\\d{2})(?![\\d.,])`,
      'g',
    ),
  )) {
    const at = m.index ?? 0;
    if (out.some((o) => Math.abs(o.at - at) < 3)) continue;
    const d = iso(Number(m[3]), Number(m[2]), Number(m[1]));
    if (d) out.push({ iso: d, at });
  }
  // "1 mai 2024", "12 de marzo de 2025", "05-JAN-2017", "27/MAY/2018", "30 DEC 17".
  const dayMonth = new RegExp(
    `(?<!\\d)(\\d{1,2})(?:\\.?\\s*(?:DE\\s*)?|[-/])(${MONTH_RE})(?:\\.?,?\\s*(?:DE\\s*|DEL\\s*)?|[-/])(\\d{4}|\\d{2}(?![.,]?\\d))(?!\\d)`,
    'g',
  );
  for (const m of s.matchAll(dayMonth)) {
    const d = iso(Number(m[3]), MONTHS[m[2] ?? ''] ?? 0, Number(m[1]));
    if (d) out.push({ iso: d, at: m.index ?? 0 });
  }
  // "Aug 19, 2025", also as PaddleOCR glues it: "onAug19,2025", "Date:Jan 1, 2024", or its comma read
  // as a point ("May 1. 2025", "Oct 30.2025").
  const monthDay = new RegExp(
    `(?:\\b|(?<=ON|DATE|FROM|TO|:))(${MONTH_RE})\\.?\\s*(\\d{1,2})[,.]?\\s*(\\d{4})(?!\\d)`,
    'g',
  );
  for (const m of s.matchAll(monthDay)) {
    const d = iso(Number(m[3]), MONTHS[m[1] ?? ''] ?? 0, Number(m[2]));
    if (d) out.push({ iso: d, at: m.index ?? 0 });
  }
  return out.sort((a, b) => a.at - b.at).map((d) => ({ ...d, line: s }));
}
