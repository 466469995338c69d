/** The policy's start and end: each date's role from its label, then the pair that makes a whole term. */
import { anyOf, type DateRole } from '../lexicon/index.js';
import { findDates } from '../text/dates.js';
import type { Line } from '../text/lines.js';
import { cutEnd } from './cut-end.js';
import { isInstalmentLine, statedInstalmentCount } from './instalments.js';
import { isWholeMonths, termMonths } from './term.js';

/**
 * Labels that say what the date after them is (lexicon/: dateRoles), spaces optional and with the
 * OCR's usual misreads ("Elfective", "Explry", "Date of tssue", "Fecha de emisi6n"). "other": another
 * person's or thing's date (the driver's birth or licence, the car's registration), looked for
 * first. An issue date is never the start.
 */
const ROLES: DateRole[] = ['other', 'issue', 'start', 'end', 'range'];
const DATE_ROLES = ROLES.map((role): [DateRole, RegExp] => [
  role,
  new RegExp(
    anyOf((l) => l.dateRoles[role]),
    'g',
  ),
]);

/** The labels on a line, left to right. */
function dateLabels(norm: string): { role: DateRole; at: number; end: number }[] {
  const out: { role: DateRole; at: number; end: number }[] = [];
  for (const [role, re] of DATE_ROLES)
    for (const m of norm.matchAll(re)) {
      const at = m.index ?? 0;
      // A label inside a longer one found first ("DE LA" in "VALABILA DE LA") is the same label.
      if (out.some((o) => at >= o.at && at < o.end)) continue;
      out.push({ role, at, end: at + m[0].length });
    }
  return out.sort((a, b) => a.at - b.at);
}

type DatedRole = { iso: string; role: DateRole | null; instalment: boolean; line: number };

/**
 * Every date of the document with the role its label gives it: the label nearest before it on its
 * line ("Effective date: 10/02/2024   Expiry date: 09/08/2024"); on a line of two dates under a
 * "period" label, the first starts and the second ends; in a row under column headings ("Policy
 * number  Start date  End date"), the heading of its column, in order.
 */
export function datedRoles(lines: Line[]): DatedRole[] {
  const out: DatedRole[] = [];
  for (const l of lines) {
    const ds = findDates(l.norm);
    if (!ds.length) continue;
    const labels = dateLabels(l.norm);
    const instalment = isInstalmentLine(l);
    const roles: (DateRole | null)[] = ds.map(
      (d) => labels.filter((x) => x.end <= d.at + 1).at(-1)?.role ?? null,
    );
    // "Period: X - Y", "from X to Y" without its own start label.
    if (ds.length === 2 && !roles.some((r) => r && r !== 'range') && labels.some((x) => x.role === 'range')) {
      roles[0] = 'start';
      roles[1] = 'end';
    }
    if (!labels.length) {
      // A row under column headings: the heading line above holds the labels and no date.
      const head = lines[l.index - 1];
      const cols =
        head && !findDates(head.norm).length ? dateLabels(head.norm).filter((x) => x.role !== 'range') : [];
      if (cols.length >= 2 && cols.length === ds.length)
        cols.forEach((c, i) => {
          roles[i] = c.role;
        });
    }
    ds.forEach((d, i) => {
      out.push({ iso: d.iso, role: roles[i] ?? null, instalment, line: l.index });
    });
  }
  return out;
}

/**
 * The policy's start and end: the labelled ones when they make a whole term; else the two dates
 * (no issue date, no instalment's due date) that make an exact term, labelled ones and a yearly
 * term first; else the labelled ones, the gaps filled with the earliest and latest other dates.
 */
export function policyPeriod(lines: Line[]): { start: string | null; end: string | null; conf: number } {
  const dates = endsAfterStart(datedRoles(lines));
  const conf = (l: number | undefined) => lines[l ?? -1]?.confidence ?? 0.5;
  const s = dates.find((d) => d.role === 'start' && !d.instalment);
  const e = dates.filter((d) => d.role === 'end' && !d.instalment && (!s || d.iso > s.iso)).at(0);
  if (s && e && isWholeMonths(s.iso, e.iso))
    return { start: s.iso, end: e.iso, conf: Math.max(0.9, Math.min(conf(s.line), conf(e.line))) };
  const usable = dates.filter((d) => d.role !== 'issue' && d.role !== 'other' && !d.instalment);
  const latest = usable
    .map((d) => d.iso)
    .sort()
    .at(-1);
  let best: { a: DatedRole; b: DatedRole; score: number } | null = null;
  for (const a of usable)
    for (const b of usable) {
      const n = a.iso < b.iso ? termMonths(a.iso, b.iso) : 0;
      if (!n) continue;
      const score =
        (a.role === 'start' ? 4 : 0) +
        (b.role === 'end' ? 4 : 0) +
        (n === 12 ? 2 : n === 6 ? 1 : 0) +
        (b.iso === latest ? 1 : 0);
      if (!best || score > best.score) best = { a, b, score };
    }
  if (best) return { start: best.a.iso, end: best.b.iso, conf: best.score >= 4 ? 0.9 : 0.75 };
  const dues = [...new Set(dates.filter((d) => d.instalment).map((d) => d.iso))].sort();
  if (!usable.length && !s) {
    // Only an issue date and the instalments: the first instalment falls due on the start, and the
    // instalments' count times their spacing is the term.
    const first = dues[0] ?? null;
    return { start: first, end: first ? termFromInstalments(lines, dues, first) : null, conf: 0.4 };
  }
  const others = [...new Set(usable.map((d) => d.iso))].sort();
  const start = s?.iso ?? others[0] ?? null;
  const end =
    e?.iso ??
    (start ? cutEnd(lines, start) : null) ??
    (others.length > 1
      ? (others.at(-1) ?? null)
      : start && dues[0] === start
        ? termFromInstalments(lines, dues, start)
        : null);
  return { start, end, conf: s && e ? Math.min(conf(s.line), conf(e.line)) : 0.5 };
}

/**
 * The end of a policy paid in instalments, when no end date could be read: the number of
 * instalments (as stated, "Payable in 12 instalments", else as printed) times their spacing is a
 * 1, 3, 6 or 12-month term from `start`. Null for anything else, or fewer than two due dates.
 */
export function termFromInstalments(lines: Line[], dues: string[], start: string): string | null {
  // Two printed instalments may be two of four (lines the OCR lost): three, or a stated count.
  if (dues.length < 2) return null;
  const days = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;
  // The spacing between two consecutive dues (one whose date the OCR lost leaves a double gap).
  const gap = Math.min(...dues.slice(1).map((d, i) => days(dues[i] ?? d, d)));
  const stated = statedInstalmentCount(lines);
  // As printed: the instalment lines with their own due date or amount.
  const printed = lines.filter(
    (l) => isInstalmentLine(l) && (findDates(l.norm).length > 0 || /\d[.,]\d{2}(?!\d)/.test(l.norm)),
  ).length;
  if (!stated && Math.max(printed, dues.length) < 3) return null;
  const count = stated ?? Math.max(printed, dues.length);
  const months = (count * gap) / 30.44;
  const term = [1, 3, 6, 12].find((m) => Math.abs(months - m) <= m * 0.08);
  if (!term) return null;
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1 + term, d - 1)).toISOString().slice(0, 10);
}

/** Digits a faded print turns into one another, in a year: 0 and 6, 8 or 9; 3 and 8; 5 and 6. */
const YEAR_LOOKALIKES: Record<string, string> = {
  '0': '689',
  '6': '058',
  '8': '036',
  '9': '0',
  '3': '8',
  '5': '6',
};

/**
 * A labelled end before the labelled start ("Data sfârșit: 30 septembrie 2020" after "Data început:
 * 1 octombrie 2025"): its year with one digit read for a look-alike (2020 for 2026), when exactly one
 * such year makes a whole term from the start.
 */
export function endsAfterStart(dates: DatedRole[]): DatedRole[] {
  const start = dates.find((d) => d.role === 'start' && !d.instalment)?.iso;
  if (!start) return dates;
  return dates.map((d) => {
    if (d.iso >= start || d.role !== 'end' || d.instalment) return d;
    const fits = new Set<string>();
    for (const i of [2, 3])
      for (const c of YEAR_LOOKALIKES[d.iso[i] ?? ''] ?? '') {
        const iso = `${d.iso.slice(0, i)}${c}${d.iso.slice(i + 1)}`;
        if (iso > start && isWholeMonths(start, iso)) fits.add(iso);
      }
    return fits.size === 1 ? { ...d, iso: [...fits][0] ?? d.iso } : d;
  });
}
