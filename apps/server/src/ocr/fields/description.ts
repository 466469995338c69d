/** What was bought or done: an expense's item line, a service invoice's work line. */

import { anyOf, every, LANGUAGES, type Language, LEXICONS } from '../lexicon/index.js';
import { restoreAccents } from '../text/accents.js';
import { editDistance, oneEditApart } from '../text/fuzzy.js';
import type { Line } from '../text/lines.js';
import { normalize } from '../text/lines.js';
import { amounts } from '../text/numbers.js';
import { isKnownWord, knownWords, plain, respace } from '../text/respace.js';
import { DATE_LABEL } from './date.js';
import { NOT_TOTAL, TOTAL } from './total.js';

/** The text of an item line without its amount. */
function itemText(l: Line): string {
  return (
    l.text
      .replace(/^\S{1,2}\s{2,}/, '')
      // The price at the end (with its cents, or its currency), not a count in the name ("Anvelope iarnă 4 buc").
      .replace(/\s+(?:[£€$]\s*)?-?(?:\d[\d.,]*[.,]\d{2}|\d+(?=\s*(?:LEI|RON|EUR|€|£)))\s*\S{0,4}\s*$/i, '')
      .replace(/[\s.:|_-]+$/, '')
      .trim()
  );
}

/** An expense's description: the item line naming its type, or the first priced line. */
export function itemDescription(lines: Line[], typeLine?: Line): { value: string | null; conf: number } {
  const priced = lines.find(
    (l) =>
      !TOTAL.test(l.norm) &&
      !NOT_TOTAL.test(l.norm) &&
      !DATE_LABEL.test(l.norm) &&
      amounts(l.text).length > 0 &&
      /[A-Za-z]{3}/.test(itemText(l)),
  );
  const itemLine = typeLine && amounts(typeLine.text).length ? typeLine : (priced ?? typeLine);
  const description = itemLine ? mendWords(respace(itemText(itemLine))) : '';
  return { value: restoreAccents(description) || null, conf: (itemLine?.confidence ?? 0) * 0.9 };
}

/**
 * "Work carried out:", "Lucrări efectuate:", "Trabajo realizado:", spaces optional (PaddleOCR drops
 * some); its colon read as a point ("Concepto.kit de distribución") too.
 */
const WORK_LABEL = new RegExp(`^(${anyOf((l) => l.workLabel)})\\s*[:.-]`);
/** A company's name (the garage's, at the top): "… SRL", "… S.L.", "… LTD", glued or not. */
const COMPANY = new RegExp(`(?:\\b|[a-z])(?:${anyOf((l) => l.companyForm, 'GMBH')})\\.?$`, 'i');
const SERVICE_WORDS = new RegExp(anyOf((l) => l.serviceWork));
/** The parts row names a work word only inside its own ("Recambios" holds "cambio", "Piese de schimb" "schimb"). */
const PARTS_ROW = new RegExp(`^(?:${anyOf((l) => l.partsRow)})\\b`);

/** A service invoice's description: the text after its work label, else a line naming service work. */
export function workDescription(lines: Line[]): { value: string | null; conf: number } {
  // Stray marks the OCR puts between a label's words ("Trabajo ) realizado:") are no part of it.
  const work = lines.find((l) => WORK_LABEL.test(l.norm.replace(/\s*[)(|[\]]\s*/g, ' ')));
  if (work) return finished(work.text.replace(/^[^:.-]*[:.-]\s*/, ''), work.confidence, lines);
  // Not the garage's name: the first line, or one ending in SRL / S.L. / Ltd.
  const line = lines.find(
    (l) =>
      l.index > 0 &&
      SERVICE_WORDS.test(l.norm) &&
      !PARTS_ROW.test(l.norm) &&
      !TOTAL.test(l.norm) &&
      !COMPANY.test(l.text.trim()),
  );
  // A label before a colon that the OCR broke up ("Cc Icepto: Sustitución…" for "Concepto:"), or
  // the labour row's before its dash ("Latonr-Full service", "Mano de obra -Revisión oficial"), is
  // no part of the work: dropped when it names none.
  const named = line
    ? finished(
        itemText(line).replace(/^[^:\d–-]{1,16}(?::|\s*[–-])\s*/, (m) =>
          SERVICE_WORDS.test(normalize(m)) ? m : '',
        ),
        line.confidence * 0.7,
        lines,
      )
    : { value: null, conf: 0 };
  // A work label a letter off is less sure: a line naming the work in more known words wins (the
  // labour row "Mano de obra : Mantenimiento anual" over "Concepte: Mantenimiente anust").
  const misread = misreadWorkLabel(lines);
  const fromLabel = misread ? finished(misread.text, misread.line.confidence * 0.8, lines) : null;
  return fromLabel?.value && knownCount(fromLabel.value) >= knownCount(named.value ?? '') ? fromLabel : named;
}

/** How many of a text's words are work words. */
const knownCount = (text: string) =>
  text.split(/[^\p{L}]+/u).filter((w) => w.length >= 3 && isKnownWord(w)).length;

/** The work as read: without the next column or a price, its words mended, its accents back. */
function finished(text: string, conf: number, lines: Line[]): { value: string | null; conf: number } {
  // The next column is no part of the work: a tilted photo's price or hours on the same row
  // ("Mantenimiento anual   268,82", "Mantenimiento anual   2h   241.00"); nor is a price with
  // cents at its end ("Work: Brake pads replaced 58.06").
  const cut = (text.trim().split(/\s{3,}(?=[(\d])/)[0] ?? '')
    .replace(/\s+(?:[£€$]\s*)?\d[\d.,]*[.,]\d{2}\s*\S{0,4}$/, '')
    .trim();
  const description = cut ? mendWords(respace(spacedAsElsewhere(cut, lines))) : '';
  return { value: description ? restoreAccents(description) : null, conf: description ? conf : 0 };
}

const WORK_LETTERS = every((l) => l.workLetters);
/**
 * A line that starts with a work label a letter off, its colon maybe lost or the work glued to it
 * ("Luerare: Revizle anuala", "LncrareRevizie cempleta"): the line and the work after the label.
 */
export function misreadWorkLabel(lines: Line[]): { line: Line; text: string } | null {
  for (const l of lines) {
    const first = /^[A-Za-z]+/.exec(l.text)?.[0] ?? '';
    for (const w of WORK_LETTERS) {
      if (w.length < 5) continue;
      for (const k of [w.length, w.length - 1, w.length + 1]) {
        const head = normalize(first.slice(0, k));
        if (k > first.length || (head !== w && !oneEditApart(head, w))) continue;
        // A whole word a letter off, or one glued to the work (a capital after it).
        if (k < first.length && !/^[A-Z]/.test(first.slice(k))) continue;
        // The label's second word before a colon is no part of the work ("Trabajo realrado:Mant…").
        const text = l.text
          .slice(k)
          .replace(/^\s*[:.;-]?\s*/, '')
          .replace(/^[^:\d]{1,16}:\s*/, '');
        if (/[A-Za-z]{3}/.test(text)) return { line: l, text };
      }
    }
  }
  return null;
}

/**
 * A description the OCR printed without its spaces ("Fullservice") is written with them where the
 * invoice repeats it (the labour line "Labour - Full service"): the same letters, spaced.
 */
export function spacedAsElsewhere(text: string, lines: Line[]): string {
  const key = normalize(text).replace(/[^A-Z]/g, '');
  if (key.length < 6) return text;
  const spaces = (t: string) => (t.match(/\s/g) ?? []).length;
  for (const l of lines) {
    // Each letter of the line, with where it is in the line's text.
    const at: number[] = [];
    let letters = '';
    [...l.text].forEach((c, i) => {
      const n = normalize(c).replace(/[^A-Z]/g, '');
      if (n.length === 1) {
        letters += n;
        at.push(i);
      }
    });
    const from = letters.indexOf(key);
    if (from < 0) continue;
    const found = l.text.slice(at[from], (at[from + key.length - 1] ?? 0) + 1);
    if (spaces(found) > spaces(text)) return found;
  }
  return text;
}

/** A digit the OCR read for a letter inside a word: "0s" for "os", "1" for "l". */
const asLetters = (t: string) => t.replace(/0/g, 'o').replace(/1/g, 'l');
/** Narrow letters, the first strokes faded print loses ("itros" for "filtros"). */
const NARROW = new Set(['f', 'i', 'j', 'l', 't']);
/** Whether `t` is `word` with one or two of its narrow letters lost and nothing else changed. */
function narrowLettersLost(word: string, t: string): boolean {
  const lost = word.length - t.length;
  if (lost < 1 || lost > 2) return false;
  let i = 0;
  let dropped = 0;
  for (const c of word) {
    if (c === t[i]) i++;
    else if (NARROW.has(c)) dropped++;
    else return false;
  }
  return i === t.length && dropped === lost;
}
/** `t` with each i read as l or l as i (look-alikes in small print: "oll" for "oil"). */
function lookAlikes(t: string): string[] {
  const out: string[] = [];
  [...t].forEach((c, k) => {
    if (c === 'i' || c === 'l') out.push(t.slice(0, k) + (c === 'i' ? 'l' : 'i') + t.slice(k + 1));
  });
  return out;
}
/**
 * The one work word `token` stands for, or null: for five letters and more, the word of six or more
 * a letter away, or of seven or more that lost one or two narrow letters; for any length, the word
 * an i read as l (or l as i) makes.
 */
function nearWord(token: string, langs: Set<Language>): string | null {
  const t = plain(token);
  if (t.length < 3 || isKnownWord(t)) return null;
  const swapped = lookAlikes(t).filter(isKnownWord);
  if (swapped.length === 1) return swapped[0] ?? null;
  if (t.length < 5) return shortNearWord(t, langs);
  let near = knownWords().filter((w) => w.length >= 6 && oneEditApart(w, t));
  if (!near.length) near = knownWords().filter((w) => w.length >= 7 && narrowLettersLost(w, t));
  // Two languages' words a letter away ("complets": completa, completo): the one in the language of
  // the description's other words ("Distribuție complets").
  if (near.length > 1) near = near.filter((w) => wordLanguages(w).some((l) => langs.has(l)));
  // A long word two letters off ("Manteminiento": its m and n swapped): long work words are few
  // and far apart, so only one is that near.
  if (!near.length && t.length >= 10)
    near = knownWords().filter((w) => w.length >= 10 && editDistance(w, t) <= 2);
  if (!near.length) return shortNearWord(t, langs);
  return near.length === 1 ? (near[0] ?? null) : null;
}

/**
 * A short word one letter off ("bolt" in "Timing bolt kit", "amual" for "anual"), or of three
 * letters that lost a narrow one ("Ful service"): only when the description's other words are read
 * right and exactly one of their language's work words of that length or one more is that near;
 * short words have too many neighbours otherwise.
 */
function shortNearWord(t: string, langs: Set<Language>): string | null {
  if (t.length < 3 || t.length > 5 || !langs.size) return null;
  const near = knownWords().filter(
    (w) =>
      (w.length === t.length || w.length === t.length + 1) &&
      (t.length === 3 ? narrowLettersLost(w, t) : oneEditApart(w, t)) &&
      wordLanguages(w).some((l) => langs.has(l)),
  );
  return near.length === 1 ? (near[0] ?? null) : null;
}

/** The languages whose work words hold `word` (plain letters). */
const wordLanguages = (word: string) => LANGUAGES.filter((l) => LEXICONS[l].gluedWords.includes(word));
/** `word` written in the case of `like` (capitalised, upper or lower). */
const caseLike = (word: string, like: string) =>
  like === like.toUpperCase()
    ? word.toUpperCase()
    : /^\p{Lu}/u.test(like)
      ? (word[0]?.toUpperCase() ?? '') + word.slice(1)
      : word;

/**
 * Words of a description the OCR split or misread by a letter, mended against the words that
 * describe work on a car (the respace dictionary): PaddleOCR puts a space inside a word where the
 * print's letters are far apart ("Reparación embr ague", "Neumatic 0s": a 0 for the o) and loses a
 * faint letter ("aternator", "fiter"). Two tokens are joined only when together they are a known word
 * and apart they are not both words; a word of five letters or more is changed only when exactly one
 * known word (of six or more) is a letter away.
 */
export function mendWords(text: string): string {
  // Once more when a word was mended: that word now tells the language of a short one beside it
  // ("Manteminiento amual": mantenimiento, then anual).
  const once = mendOnce(text);
  return once === text ? once : mendOnce(once);
}

function mendOnce(text: string): string {
  const parts = text.split(/(\s+)/);
  // The languages of the words read right: only one of them is the description's, mostly.
  const langs = new Set(
    parts.filter((p) => p.length >= 4 && isKnownWord(p)).flatMap((p) => wordLanguages(plain(p))),
  );
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const a = parts[i] ?? '';
    const b = parts[i + 2];
    if (/^\p{L}{2,}$/u.test(a) && b !== undefined && /^[\p{L}01]{1,}$/u.test(b) && /\p{L}/u.test(b)) {
      const joined = a + asLetters(b);
      if (isKnownWord(joined) && !(isKnownWord(a) && isKnownWord(b))) {
        parts[i + 2] = joined;
        i++;
        continue;
      }
    }
    const near = /^\p{L}+$/u.test(a) ? nearWord(a, langs) : null;
    out.push(near ? caseLike(near, a) : a);
  }
  return out.join('');
}
