/**
 * The Papers screen's first screen as last rendered (issue 52: "first page visible ≤ 1 s offline"):
 * its heading, the first car and that car's first cards, kept in localStorage with the user's id.
 * public/early-load.js puts it into the shell as soon as the HTML is parsed, before the app's script
 * has run (on a slow phone, most of the first two seconds), with the previews the wallet keeps; the
 * app then renders its page over it. Kept only while the wallet is on; logout, the wallet turned off
 * and another user forget it (early-load.js shows it only to the user it was kept for).
 */
export const PAPERS_SHELL_KEY = 'evdra.papersShell';

/** What early-load.js reads (keep the two in step). */
export interface PapersShell {
  userId: number;
  html: string;
}

/**
 * Keeps a copy of `page` (the Papers card as rendered) cut to its first car and `cards` first cards:
 * what a phone's first screen shows. Its images are marked `data-early` (bench:papers tells the
 * shell's copy from the app's own).
 */
export function keepPapersShell(userId: number, page: Element, cards: number): void {
  const copy = page.cloneNode(true) as Element;
  for (const later of copy.querySelectorAll('.papers__vehicle ~ .papers__vehicle')) later.remove();
  for (const li of copy.querySelectorAll(`.documents__item:nth-child(n + ${cards + 1})`)) li.remove();
  for (const img of copy.querySelectorAll('img')) img.setAttribute('data-early', 'true');
  const shell: PapersShell = { userId, html: copy.outerHTML };
  try {
    localStorage.setItem(PAPERS_SHELL_KEY, JSON.stringify(shell));
  } catch {
    // storage full or unavailable: the screen just comes with the app
  }
}

export function forgetPapersShell(): void {
  try {
    localStorage.removeItem(PAPERS_SHELL_KEY);
  } catch {
    // storage unavailable: nothing was kept
  }
}
