/** Romanian diacritics and Spanish accents put back on the usual receipt words the OCR read without them. */
/**
 * PaddleOCR reads no Romanian diacritics and drops some Spanish accents: the usual receipt words
 * get them back ("-cion" → "-ción"), only in a text that has none at all.
 */
const ACCENTS: [RegExp, string][] = [
  [/(?<=[cs])ion\b/g, 'ión'],
  [/\bspalatorie\b/gi, 'spălătorie'],
  [/\bspalare\b/gi, 'spălare'],
  [/\bplacute\b/gi, 'plăcuțe'],
  [/\bfrana\b/gi, 'frână'],
  [/\bdistributie\b/gi, 'distribuție'],
  [/\breparatie\b/gi, 'reparație'],
  [/\binlocuire\b/gi, 'înlocuire'],
  [/\bmanopera\b/gi, 'manoperă'],
  [/\btaxa\b/gi, 'taxă'],
];
export function restoreAccents(text: string): string {
  if (/[^ -~]/.test(text)) return text;
  let out = text;
  for (const [re, word] of ACCENTS)
    out = out.replace(re, (m) =>
      m[0] === m[0]?.toUpperCase() && word.length > 3 ? (word[0]?.toUpperCase() ?? '') + word.slice(1) : word,
    );
  return out;
}
