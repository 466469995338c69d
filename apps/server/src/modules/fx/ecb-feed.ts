/**
 * The ECB's euro foreign exchange reference rates in its own XML format (eurofxref-daily.xml,
 * eurofxref-hist-90d.xml, eurofxref-hist.xml): a `gesmes:Envelope` holding one `Cube`, which holds a
 * `Cube time='YYYY-MM-DD'` per business day, each holding `Cube currency='USD' rate='1.0932'` (units
 * of the currency per euro). Read with a small scanner, not an XML library: the format is fixed,
 * flat and attribute-only, and anything else in the file (subject, sender, comments) is skipped.
 */

export type EcbRate = { date: string; currency: string; rate: number };

export type EcbFeed = {
  rates: EcbRate[];
  /** Currency entries left out: outside a dated Cube, or with a bad code, rate or date. */
  skipped: number;
};

export class EcbFeedError extends Error {}

// <Cube …>, <Cube …/>, </Cube>, with or without a namespace prefix.
const CUBE_TAG = /<(\/?)(?:[A-Za-z_][\w.-]*:)?Cube\b([^>]*?)(\/?)>/g;
const ATTRIBUTE = /([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENVELOPE = /<(?:[A-Za-z_][\w.-]*:)?Envelope\b/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const CODE = /^[A-Z]{3}$/;
const DECIMAL = /^\d{1,12}(\.\d{1,10})?$/;

const realDate = (s: string) => ISO_DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

function attributes(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const m of text.matchAll(ATTRIBUTE)) found[m[1] as string] = m[2] ?? m[3] ?? '';
  return found;
}

/** Every rate in an ECB reference-rate file; throws EcbFeedError when it is not one (an HTML error page). */
export function parseEcbFeed(xml: string): EcbFeed {
  const text = xml.replace(/<!--[\s\S]*?-->/g, '');
  if (!ENVELOPE.test(text)) throw new EcbFeedError('not an ECB reference-rate file (no gesmes:Envelope)');
  const rates: EcbRate[] = [];
  let skipped = 0;
  // Which open Cubes are dated ones, innermost last; `day` is the innermost dated Cube's valid date.
  const open: (string | null)[] = [];
  let day: string | null = null;
  for (const [, closing, attrText = '', selfClosing] of text.matchAll(CUBE_TAG)) {
    if (closing) {
      open.pop();
      day = open.findLast((d) => d !== null) ?? null;
      continue;
    }
    const a = attributes(attrText);
    if (a.currency !== undefined || a.rate !== undefined) {
      const rate = Number(a.rate);
      if (day && a.currency && CODE.test(a.currency) && DECIMAL.test(a.rate ?? '') && rate > 0) {
        rates.push({ date: day, currency: a.currency, rate });
      } else skipped += 1;
    }
    if (selfClosing) continue;
    const dated = a.time !== undefined && realDate(a.time) ? a.time : null;
    // A Cube with a bad time hides its rates (counted as skipped) rather than filing them under another day.
    open.push(a.time !== undefined ? (dated ?? '') : null);
    if (a.time !== undefined) day = dated;
  }
  if (rates.length === 0)
    throw new EcbFeedError(`no rates in the file${skipped ? ` (${skipped} unreadable)` : ''}`);
  return { rates, skipped };
}
