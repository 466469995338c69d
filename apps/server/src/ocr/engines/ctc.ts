/** The PaddleOCR recogniser's output decoded (greedy CTC), Latin script only. */

/** The recogniser's classes (blank first, then the dictionary, then a space) it may answer with. */
export function allowedClasses(dictionary: string[]): { chars: string[]; allowed: Uint8Array } {
  const chars = ['', ...dictionary, ' '];
  const allowed = new Uint8Array(chars.length);
  // Latin script, digits and receipt punctuation only: the Chinese model otherwise reads a faded
  // O as a Greek omicron or a CJK look-alike, which no label regex would match.
  const ok = /^[\u0020-\u007e\u00a0-\u024f°º№€£]$/u;
  for (let i = 0; i < chars.length; i++) allowed[i] = i === 0 || ok.test(chars[i] ?? '') ? 1 : 0;
  return { chars, allowed };
}

/**
 * How sure the recogniser must be of a space after a group of digits, though blank won the steps
 * there, to print one: it hesitates (0.3–0.4) at the gap between printed digit groups it glues
 * together ("DLM 4414 3342" read "DLM 44143342"), much less between the digits of one number.
 */
export const SOFT_DIGIT_SPACE = 0.3;

/**
 * Whether `text` ends in a group of three digits or more that follows no separator: where a printed
 * number breaks into groups ("0345 934 0000", "ADM 7514 1976"), not the digits of an amount's
 * decimals or thousands ("25,981": no space after "25,98").
 */
const endsInDigitGroup = (text: string) => /(?:^|[^\d.,])\d{3,}$/.test(text);

/**
 * Greedy CTC decoding of one sequence of `steps` × `classes` probabilities, restricted to `allowed`:
 * the text, its mean confidence, and each character's probability (at its surest step). A space the
 * recogniser half saw between two digits (SOFT_DIGIT_SPACE) is kept.
 */
export function ctcDecode(
  probs: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  chars: string[],
  allowed: Uint8Array,
): { text: string; confidence: number; probs: number[] } {
  let text = '';
  let sum = 0;
  let n = 0;
  let prev = -1;
  const charProbs: number[] = [];
  const space = chars.length - 1;
  // The surest space since the last character printed.
  let gap = 0;
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let best = 0;
    let bestP = -1;
    for (let c = 0; c < classes; c++) {
      const p = probs[base + c] ?? 0;
      if (p > bestP && allowed[c]) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== prev) {
      const c = chars[best] ?? '';
      if (gap >= SOFT_DIGIT_SPACE && /^\d/.test(c) && endsInDigitGroup(text)) {
        text += ' ';
        charProbs.push(gap);
      }
      gap = 0;
      text += c;
      for (let k = 0; k < c.length; k++) charProbs.push(bestP);
      sum += bestP;
      n++;
    } else if (best !== 0 && charProbs.length) {
      // The same character over several steps: as sure as its surest step.
      charProbs[charProbs.length - 1] = Math.max(charProbs[charProbs.length - 1] ?? 0, bestP);
    }
    if (best === 0) gap = Math.max(gap, probs[base + space] ?? 0);
    prev = best;
  }
  return { text, confidence: n ? sum / n : 0, probs: charProbs };
}
