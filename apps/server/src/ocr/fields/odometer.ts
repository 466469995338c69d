/** The odometer reading: the number after an odometer label (or before "km"), never the next service's. */

import { anyOf } from '../lexicon/index.js';
import type { Line } from '../text/lines.js';
import { amountTokens } from '../text/numbers.js';

/** An odometer's label; "KM" and "KMS" in every language. */
const ODO_LABEL = new RegExp(`\\b(${anyOf((l) => l.odometer, 'KMS?')})\\b\\.?`);
/** A distance that is not the car's reading: the next service, a range, an interval, a speed. */
const NOT_ODO = new RegExp(anyOf((l) => l.notOdometer, 'KM\\s*\\/\\s*H'));

/** An amount with cents and its currency. */
const MONEY = /(?<![\d.,])\d[\d.,]*[.,]\d{2}\s*(?:LEI|RON|EUR|€|£|\$)(?![A-Za-z])/gi;

/**
 * "76 320", "76. 320": a reading whose thousands separator the OCR read as a space (or a point and a
 * space) is one number, not 76 followed by 320.
 */
export const joinThousands = (text: string) =>
  text.replace(/(?<![\d.,])\d{1,3}(?:[.,]?\s\d{3})+(?![\d.,]*\d)/g, (m) => m.replace(/[.,\s]/g, ''));

/**
 * The odometer: the number after an odometer label anywhere on the line (not a date, not the next
 * service's), else a number followed by "km". Miles are converted.
 */
export function odometer(lines: Line[]): { value: number; conf: number } | null {
  const read = (l: Line, text: string, conf: number) => {
    // Neither a date nor an amount of money ("Kilometraj   55,98 RON": a tilted photo's row beside
    // the label): a reading has no cents and no currency.
    const clean = joinThousands(text.replace(/\d{1,4}[./-]\d{1,2}[./-]\d{2,4}/g, ' ').replace(MONEY, ' '));
    const v = amountTokens(clean, 'int').find((t) => t.value >= 10 && !/^(19|20)\d{2}$/.test(t.token))?.value;
    if (v === undefined) return null;
    // "48320miles": PaddleOCR glues the unit to the number.
    return { value: /(?:\b|(?<=\d))MILES?\b/.test(l.norm) ? Math.round(v * 1.609344) : v, conf };
  };
  // A label that starts its line first ("KM 270243"), then one inside a line ("N-340 km 12" is an address).
  const starting = lines.filter((l) => ODO_LABEL.exec(l.norm)?.index === 0);
  for (const l of [...starting, ...lines.filter((l) => !starting.includes(l))]) {
    if (NOT_ODO.test(l.norm)) continue;
    const m = ODO_LABEL.exec(l.norm);
    if (!m) continue;
    // Inside a line only a full label counts: "N-340 km 12" is an address, "Mileage: 45,210" a reading.
    // "Nr. înmatriculare: B 729 XYZ   KM: 51.196": a short label with its colon is a label anywhere.
    const colon = /^\s*:/.test(l.norm.slice((m.index ?? 0) + m[0].length));
    if ((m.index ?? 0) > 0 && /^(KMS?|ODO)\b/.test(m[1] ?? '') && !colon) continue;
    const own = read(l, l.text.slice((m.index ?? 0) + m[0].length), l.confidence);
    if (own) return own;
    const next = lines[l.index + 1];
    const below =
      next && amountTokens(next.text, 'int').length === 1 ? read(l, next.text, next.confidence * 0.9) : null;
    if (below) return below;
  }
  for (const l of lines) {
    if (NOT_ODO.test(l.norm)) continue;
    const m = /(\d[\d.,\s]{2,}\d)\s*KM\b/.exec(l.norm);
    if (m) {
      const v = read(l, (m[1] ?? '').replace(/\s/g, ''), l.confidence * 0.8);
      if (v && v.value >= 100) return v;
    }
  }
  return null;
}
