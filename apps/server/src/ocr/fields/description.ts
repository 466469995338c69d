/** What was bought or done: an expense's item line, a service invoice's work line. */

import { anyOf } from '../lexicon/index.js';
import { restoreAccents } from '../text/accents.js';
import type { Line } from '../text/lines.js';
import { normalize } from '../text/lines.js';
import { amounts } from '../text/numbers.js';
import { respace } from '../text/respace.js';
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
  const description = itemLine ? respace(itemText(itemLine)) : '';
  return { value: restoreAccents(description) || null, conf: (itemLine?.confidence ?? 0) * 0.9 };
}

/** "Work carried out:", "Lucrări efectuate:", "Trabajo realizado:", spaces optional (PaddleOCR drops some). */
const WORK_LABEL = new RegExp(`^(${anyOf((l) => l.workLabel)})\\s*[:-]`);
/** A company's name (the garage's, at the top): "… SRL", "… S.L.", "… LTD", glued or not. */
const COMPANY = new RegExp(`(?:\\b|[a-z])(?:${anyOf((l) => l.companyForm, 'GMBH')})\\.?$`, 'i');
const SERVICE_WORDS = new RegExp(anyOf((l) => l.serviceWork));

/** A service invoice's description: the text after its work label, else a line naming service work. */
export function workDescription(lines: Line[]): { value: string | null; conf: number } {
  // Stray marks the OCR puts between a label's words ("Trabajo ) realizado:") are no part of it.
  const work = lines.find((l) => WORK_LABEL.test(l.norm.replace(/\s*[)(|[\]]\s*/g, ' ')));
  let description: string | null = null;
  let conf = 0;
  if (work) {
    description = work.text.replace(/^[^:-]*[:-]\s*/, '').trim();
    conf = work.confidence;
  } else {
    // Not the garage's name: the first line, or one ending in SRL / S.L. / Ltd.
    const line = lines.find(
      (l) => l.index > 0 && SERVICE_WORDS.test(l.norm) && !TOTAL.test(l.norm) && !COMPANY.test(l.text.trim()),
    );
    if (line) {
      description = itemText(line);
      conf = line.confidence * 0.7;
    }
  }
  if (description) description = respace(spacedAsElsewhere(description, lines));
  return { value: description ? restoreAccents(description) : null, conf };
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
