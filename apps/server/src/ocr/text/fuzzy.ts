/** Approximate matching: how many letters a misread word is off from the one it stands for. */
/**
 * The fewest letters to add, drop or change in `text` to find `word` inside it (Sellers' approximate
 * substring match).
 */
export function editsToFind(word: string, text: string): number {
  let prev = new Array<number>(word.length + 1).fill(0).map((_, i) => i);
  let best = prev[word.length] ?? word.length;
  for (const c of text) {
    const cur = [0];
    for (let i = 1; i <= word.length; i++)
      cur[i] = Math.min(
        (prev[i] ?? 0) + 1,
        (cur[i - 1] ?? 0) + 1,
        (prev[i - 1] ?? 0) + (word[i - 1] === c ? 0 : 1),
      );
    prev = cur;
    best = Math.min(best, cur[word.length] ?? best);
  }
  return best;
}

/** The fewest letters to add, drop or change to turn `a` into `b` (Levenshtein distance). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = cur;
  }
  return prev[b.length] ?? a.length;
}

/**
 * Whether `read` is `word` up to a letter in three misread, lost or added (at most two more or
 * fewer letters): faded print loses a letter or two of a long word.
 */
export const aLetterInThreeOff = (word: string, read: string): boolean =>
  Math.abs(word.length - read.length) <= 2 && editDistance(word, read) <= Math.floor(word.length / 3);

/** Whether `a` and `b` differ by one letter changed, added or dropped. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < Math.min(a.length, b.length) && a[i] === b[i]) i++;
  const tail = (x: string, from: number) => x.slice(from);
  if (a.length === b.length) return tail(a, i + 1) === tail(b, i + 1);
  return a.length > b.length ? tail(a, i + 1) === tail(b, i) : tail(a, i) === tail(b, i + 1);
}
