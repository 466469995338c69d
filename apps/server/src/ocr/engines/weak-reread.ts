/** Boxes the recogniser was unsure of, read again from the page before its light was flattened. */

/**
 * A reading below this confidence is read a second time from the unflattened page. On blurred or
 * low-resolution A4 photos (a policy, a garage invoice taken at 1 megapixel, with motion blur) the
 * light flattening's contrast stretch thins small print until the recogniser reads noise, while the
 * page as photographed keeps the strokes; on sharp print the flattened reading is surer and kept.
 * The development set's insurance tuning part, 36 A4 pages: 231 → 236 of 252 fields; 0.9 read the
 * same, per-box contrast stretching of the re-read crop 234 (issue 55 §3, 2026-11-29).
 */
export const WEAK_READING = 0.85;

type Reading = { text: string; confidence: number };

/** Whether a box's reading is unsure enough to be read again. */
export const isWeak = (r: Reading) => r.confidence < WEAK_READING;

/** Of a box's first reading and its re-reading, the surer one (the first on a tie or an empty re-reading). */
export function surer(first: Reading, again: Reading | undefined): Reading {
  const text = again?.text.trim() ?? '';
  return again && text && again.confidence > first.confidence
    ? { text, confidence: again.confidence }
    : first;
}
