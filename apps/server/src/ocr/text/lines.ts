/** A receipt's text lines: each line's text, its normalised form (upper case, no accents) and confidence. */
export type Line = {
  text: string;
  norm: string;
  confidence: number;
  index: number;
  /** Where the line and its words are on the page (engines that report a layout only). */
  box?: OcrBox;
  words?: { text: string; box: OcrBox }[];
};
type OcrBox = { x: number; y: number; w: number; h: number };

/** Uppercase without diacritics (ș → S, ó → O): labels match however the OCR rendered accents. */
export function normalize(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ȘșŞş]/g, 'S')
    .replace(/[ȚțŢţ]/g, 'T')
    .toUpperCase();
}

export function toLines(
  text: string,
  confidences?: { text: string; confidence: number; box?: OcrBox; words?: Line['words'] }[],
): Line[] {
  const source = confidences ?? text.split('\n').map((t) => ({ text: t, confidence: 1 }));
  return (
    source
      .map((l) => ({
        ...l,
        text: l.text.replace(/^[\s|!_~—–'"`.,;:*]+/, '').replace(/[\s|_~—–]+$/, ''),
      }))
      // Spanish "-ción/-sión" whose ó the OCR read as â, à or 6 ("Sustituci 6n", "emisi6n").
      .map((l) => ({ ...l, text: l.text.replace(/(?<=[cs]i)(?:[âàä]|\s?6)(?=n\b)/g, 'ó') }))
      .filter((l) => l.text.length > 0)
      .map((l, index) => ({ ...l, norm: fixTotalWord(normalize(l.text)), index }))
  );
}

/**
 * TOTAL as the OCR reads it off faded thermal paper ("TOIAL", "1OIAL", "[UIAL", "7OTAL", "TOTA!"):
 * each letter or a look-alike, at least two of them right. The word is put back in the normalised
 * line (same length: positions in the text still match).
 */
export function fixTotalWord(norm: string): string {
  return norm.replace(
    /(?<![A-Z0-9])[T7I1L[][O0UQ][T7I1L][A4][L1I!\]|](?![A-Z0-9])|(?<=SUB[\s-]?)[T7I1L[][O0UQ][T7I1L][A4][L1I!\]|](?![A-Z0-9])/g,
    (w) => ([...w].filter((c, i) => c === 'TOTAL'[i]).length >= 2 ? 'TOTAL' : w),
  );
}
