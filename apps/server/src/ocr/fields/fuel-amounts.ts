/** Litres, price per litre and the amount paid at the pump: the three that agree (litres × price = total). */
import { type Result, round } from '../draft.js';
import { tableValues } from '../geometry/table.js';
import { anyOf } from '../lexicon/index.js';
import type { Line } from '../text/lines.js';
import { amountTokens, parseNumber } from '../text/numbers.js';
import { labelValue } from './label.js';
import { totals } from './total.js';

/** Units every language abbreviates the same way (a charge in kWh, CNG in kg). */
const UNITS = ['L', 'LT', 'LTR', 'LTRS', 'KWH', 'KG'];
/** A quantity and its unit ("20,08 LITRI", "45.2L"). */
const UNIT = new RegExp(`(\\d[\\d.,]*\\d|\\d)\\s*(?:${anyOf((l) => l.litreUnit, ...UNITS)})\\b`, 'g');
/**
 * "20,08 L x 7,48", "41.27 Litres @1.739 /L" (PaddleOCR: "41.27Litres@1.739/L"); the unit's small l
 * is often read as I or 1 ("48,08 I x 1,465", "22,070 1 x 6,668").
 */
const TIMES = new RegExp(
  `(?<![\\d.,])(\\d[\\d.,]*)\\s*(?:${anyOf((l) => l.litreUnit, ...UNITS, 'I', '1')})?\\s*[X*@×]\\s*(?:[£€$]|EUR|LEI|RON)?\\s*(\\d[\\d.,]*)`,
);
const QTY_LABEL = new RegExp(`\\b(${anyOf((l) => l.quantity)})\\b`);
const PPL_LABEL = new RegExp(
  `(${anyOf((l) => l.pricePerLitre, '\\/\\s*L\\b', '\\/\\s*KWH\\b', '\\/\\s*KG\\b')})`,
);

/** Sets liters, pricePerLiter and fuelPrice: the consistent set, else what can be derived, with a warning. */
export function readFuelAmounts(lines: Line[], r: Result): void {
  // Candidates for each number, with how sure we are of each.
  type C = { value: number; conf: number };
  const qty: C[] = [];
  const ppl: C[] = [];
  const lineAmounts: C[] = [];
  for (const l of lines) {
    const isPpl = PPL_LABEL.test(l.norm);
    for (const m of l.norm.matchAll(UNIT)) {
      // "20,08 LITRI x 7,48 LEI/L": the unit right after a number (not "LEI/L").
      const before = l.norm.slice(0, m.index ?? 0);
      if (/\/\s*$/.test(before)) continue;
      const v = parseNumber(m[1] ?? '', 'qty');
      if (v !== null && v > 0 && v < 2000) qty.push({ value: v, conf: l.confidence });
    }
    const x = TIMES.exec(l.norm);
    if (x) {
      const a = parseNumber(x[1] ?? '', 'qty');
      let b = parseNumber(x[2] ?? '', 'qty');
      // "@ 165.9p/L": pence per litre.
      if (b && /^\s*P\s*\//.test(l.norm.slice((x.index ?? 0) + x[0].length))) b = Math.round(b * 10) / 1000;
      if (a) qty.push({ value: a, conf: l.confidence });
      // "47 85 L x 7,61", "4 7,85 L x 7,61", "4,785 L x 7,61": the quantity's decimal point lost,
      // moved or read as a space on a tilted photo. Its digits with the point at each place are
      // candidates too (after the one read); only the total's agreement picks one.
      const dangling = /(?<![\d.,])(\d{1,3}) $/.exec(l.norm.slice(0, x.index ?? 0))?.[1] ?? '';
      const digits = dangling + (x[1] ?? '').replace(/[^\d]/g, '');
      for (let k = 1; k < digits.length && digits.length <= 6; k++) {
        const v = Number(`${digits.slice(0, k)}.${digits.slice(k)}`);
        if (v !== a && v > 0 && v < 2000 && digits.length - k <= 3)
          qty.push({ value: v, conf: l.confidence * 0.6 });
      }
      // "21.0701x 7,482": that l glued to a quantity with its decimals; the total decides.
      const glued = /^(\d+[.,]\d{2,3})1$/.exec(x[1] ?? '');
      if (glued) qty.push({ value: parseNumber(glued[1] ?? '', 'qty') ?? 0, conf: l.confidence * 0.8 });
      if (b) ppl.push({ value: b, conf: l.confidence });
      // The amount a fiscal printer puts after them ("21,070 l x 7,482   157,65 A"): a total if they agree.
      const rest = amountTokens(l.text.slice(l.text.length - (l.norm.length - (x.index + x[0].length))));
      const amount = rest.filter((t) => /[.,]\d{2}$/.test(t.token)).at(-1);
      if (amount) lineAmounts.push({ value: amount.value, conf: l.confidence * 0.8 });
    }
    if (QTY_LABEL.test(l.norm) && !isPpl) {
      // "Cantidad   25,96 1": the unit's l read as a 1 after the quantity with its decimals.
      const m = QTY_LABEL.exec(l.norm);
      const own = amountTokens(l.text.slice((m?.index ?? 0) + (m?.[0].length ?? 0)), 'qty');
      const decimals = own.filter((t) => /[.,]\d{1,3}$/.test(t.token));
      const v =
        own.length > 1 && decimals.length === 1
          ? (decimals[0]?.value ?? null)
          : labelValue(lines, l, 'qty', QTY_LABEL);
      if (v !== null && v > 0) qty.push({ value: v, conf: l.confidence });
      // "Quantity   54 88 litres": the decimal point lost between two groups; the total decides.
      const split = /^\D*?(?<![\d.,])(\d{1,3}) (\d{2,3})(?![\d.,])/.exec(
        l.norm.slice((m?.index ?? 0) + (m?.[0].length ?? 0)),
      );
      if (split) qty.push({ value: Number(`${split[1]}.${split[2]}`), conf: l.confidence * 0.8 });
    }
    if (isPpl && !x) {
      const v = labelValue(lines, l, 'qty', PPL_LABEL);
      if (v !== null && v > 0 && v < 100) ppl.push({ value: v, conf: l.confidence });
    }
  }
  // A table under "Litros  Precio/L  Importe" headings.
  const table = tableValues(lines);
  for (const t of table) {
    if (t.column === 'qty' && t.value > 0 && t.value < 2000) qty.unshift({ value: t.value, conf: t.conf });
    if (t.column === 'ppl' && t.value > 0 && t.value < 100) ppl.unshift({ value: t.value, conf: t.conf });
  }
  const tot = [
    ...totals(lines),
    ...table.filter((t) => t.column === 'amount').map((t) => ({ value: t.value, conf: t.conf * 0.9 })),
    ...lineAmounts,
  ];
  for (const row of pricedRows(lines, tot)) {
    qty.push(row.qty);
    ppl.push(row.ppl);
    if (row.amount) tot.push(row.amount);
  }
  // Pick the consistent set: litres × price/L within 2 % of the total.
  let best: { l: C; p: C; t: C; err: number } | null = null;
  for (const l of qty)
    for (const p of ppl)
      for (const t of tot) {
        const err = Math.abs(l.value * p.value - t.value) / t.value;
        if (!best || err < best.err) best = { l, p, t, err };
      }
  // Litres × price/L printed as an amount anywhere (a photo's slant can put a pair's amount beside
  // another label): that amount is the total, when it agrees to the cent.
  if (!best || best.err > 0.02) {
    const printed = lines.flatMap((l) =>
      amountTokens(l.text)
        .filter((t) => /[.,]\d{2}$/.test(t.token) && !t.glued)
        .map((t) => ({ value: t.value, conf: l.confidence * 0.7 })),
    );
    // One unit at its own price is no evidence: the amount must differ from both factors.
    for (const l of qty.filter((q) => q.value !== 1))
      for (const p of ppl)
        for (const t of printed.filter((a) => a.value !== p.value && a.value !== l.value)) {
          const err = Math.abs(l.value * p.value - t.value) / t.value;
          if (t.value > 0 && Math.abs(l.value * p.value - t.value) < 0.011 && (!best || err < best.err))
            best = { l, p, t, err };
        }
    // Still none: a price per litre printed with three decimals anywhere on the slip, and litres
    // anywhere, whose product is an amount printed elsewhere to the cent (a tilted photo's row
    // split over the heading's line and the next ones: "Litres  Unit price  97.14" / "1.455" /
    // "66.76  97.14").
    if (!best || best.err > 0.02) {
      const numbers = lines.flatMap((l) =>
        amountTokens(l.text, 'qty')
          .filter((t) => !t.glued && /[.,]\d{2,3}$/.test(t.token))
          .map((t) => ({ value: t.value, conf: l.confidence * 0.7, d3: /[.,]\d{3}$/.test(t.token) })),
      );
      // Litres × price = price × litres: when both have three decimals ("19,601" read for "19,60 l",
      // and "1,697"), the one printed after a price-per-litre label is the price (tried first; a
      // tie keeps the first pair found).
      const labelled = (n: { value: number }) => ppl.some((q) => q.value === n.value);
      const prices = numbers
        .filter((n) => n.d3 && n.value < 100)
        .sort((a, b) => Number(labelled(b)) - Number(labelled(a)));
      for (const p of prices)
        for (const l of numbers.filter((n) => n !== p && n.value > 1 && n.value < 2000))
          for (const t of printed.filter((a) => a.value !== p.value && a.value !== l.value)) {
            const err = Math.abs(l.value * p.value - t.value) / t.value;
            if (t.value > 0 && Math.abs(l.value * p.value - t.value) < 0.011 && (!best || err < best.err))
              best = { l, p, t, err };
          }
    }
  }
  if (best && best.err <= 0.02) {
    // Three numbers that agree vouch for each other, whatever the OCR's own confidence.
    r.set('liters', best.l.value, Math.max(best.l.conf, 0.95));
    r.set('pricePerLiter', best.p.value, Math.max(best.p.conf, 0.95));
    r.set('fuelPrice', best.t.value, Math.max(best.t.conf, 0.95));
  } else {
    const l = qty[0];
    const p = ppl[0];
    const t = tot[0];
    if (l && p && !t) {
      r.set('liters', l.value, l.conf * 0.9);
      r.set('pricePerLiter', p.value, p.conf * 0.9);
      r.set('fuelPrice', round(l.value * p.value, 2), 0.6);
      r.warnings.push({ field: 'fuelPrice', code: 'DERIVED' });
    } else if (l && t && !p) {
      r.set('liters', l.value, l.conf * 0.9);
      r.set('fuelPrice', t.value, t.conf * 0.9);
      r.set('pricePerLiter', round(t.value / l.value, 3), 0.6);
    } else if (p && t && !l) {
      r.set('pricePerLiter', p.value, p.conf * 0.9);
      r.set('fuelPrice', t.value, t.conf * 0.9);
      r.set('liters', round(t.value / p.value, 2), 0.6);
      r.warnings.push({ field: 'liters', code: 'DERIVED' });
    } else {
      r.set('liters', l?.value, (l?.conf ?? 0) * 0.6);
      r.set('pricePerLiter', p?.value, (p?.conf ?? 0) * 0.6);
      r.set('fuelPrice', t?.value, (t?.conf ?? 0) * 0.6);
      if (l && p && t) {
        r.warnings.push({
          field: 'fuelPrice',
          code: 'TOTAL_MISMATCH',
          params: { liters: l.value, pricePerLiter: p.value, total: t.value },
        });
      }
    }
  }
}

/**
 * A row of the litres, the price per litre and their amount whose headings were not read (garbled,
 * or apart from it on a tilted photo): "63.81   1.711   100.18", "SIN PLOMO 98 10,71   1,700   18,21",
 * "6.326   61.20   387,15". Two neighbouring numbers with decimals whose product is, to the cent,
 * the row's next number or a total printed elsewhere. The price is the one with three decimals
 * (the other has two), else the smaller.
 */
export function pricedRows(
  lines: Line[],
  tot: { value: number; conf: number }[],
): {
  qty: { value: number; conf: number };
  ppl: { value: number; conf: number };
  amount?: { value: number; conf: number };
}[] {
  const out: ReturnType<typeof pricedRows> = [];
  const near = (p: number, t: number) => t > 0 && Math.abs(p - t) <= Math.max(0.011, 0.0002 * t);
  for (const l of lines) {
    const tokens = amountTokens(l.text, 'qty').filter((t) => !t.glued);
    for (let i = 0; i + 1 < tokens.length; i++) {
      const [a, b] = [tokens[i], tokens[i + 1]];
      if (!a || !b || !/[.,]\d{2,3}$/.test(a.token) || !/[.,]\d{2,3}$/.test(b.token)) continue;
      const product = a.value * b.value;
      const next = tokens[i + 2];
      const own = next && /[.,]\d{2}$/.test(next.token) && near(product, next.value) ? next : undefined;
      if (!own && !tot.some((t) => near(product, t.value))) continue;
      const d3 = (t: { token: string }) => /[.,]\d{3}$/.test(t.token);
      const aIsPrice = d3(a) !== d3(b) ? d3(a) : a.value < b.value;
      const [price, litres] = aIsPrice ? [a, b] : [b, a];
      if (price.value >= 100 || litres.value >= 2000) continue;
      out.push({
        qty: { value: litres.value, conf: l.confidence * 0.9 },
        ppl: { value: price.value, conf: l.confidence * 0.9 },
        amount: own ? { value: own.value, conf: l.confidence * 0.8 } : undefined,
      });
    }
  }
  return out;
}
