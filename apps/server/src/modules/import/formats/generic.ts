import { type ExpenseType, GENERIC_FIELDS, type GenericField, type ImportMapping } from '@evdra/domain';
import {
  type Collector,
  cell,
  expenseTypeOf,
  flag,
  KM_AND_LITRES,
  Table,
  type UnitsGuess,
} from '../collect.js';
import { detectDateOrder, detectDecimal, normalize, parseDate, parseNumber } from '../locale.js';
import type { CsvFile } from '../read.js';

/**
 * Any other CSV: one header row, columns proposed by the words of their headers (en/ro/es) and
 * confirmed or edited by the user (`mapping.columns`, by header text). A row with litres is a
 * fill-up; a row with only an amount is an expense. An amount's currency is the one its cell shows
 * (`283,50 lei`), else a currency column's (`Currency`, `Moneda`…), else its header's (`Total (RON)`).
 */
const WORDS: Record<GenericField, string[]> = {
  date: ['date', 'data', 'fecha', 'day', 'zi', 'dia'],
  odometer: [
    'odometer',
    'odo',
    'km',
    'kilometers',
    'kilometres',
    'mileage',
    'kilometraj',
    'kilometraje',
    'kilometros',
    'odometru',
    'odometro',
    'miles',
  ],
  liters: [
    'liters',
    'litres',
    'litri',
    'litros',
    'volume',
    'fuel',
    'quantity',
    'cantitate',
    'cantidad',
    'l',
    'carburant',
    'combustible',
    'gallons',
  ],
  fuelPrice: [
    'total',
    'total cost',
    'cost total',
    'costo total',
    'coste total',
    'total price',
    'fuel cost',
    'importe total',
    'suma totala',
  ],
  pricePerLiter: [
    'price per liter',
    'price per litre',
    'price l',
    'unit price',
    'pret l',
    'pret litru',
    'pret unitar',
    'precio l',
    'precio por litro',
    'precio unitario',
  ],
  fullTank: ['full', 'full tank', 'plin', 'rezervor plin', 'lleno', 'deposito lleno', 'tanque lleno'],
  missedPrevious: ['missed', 'missed previous', 'omis', 'omitido'],
  amount: [
    'amount',
    'cost',
    'price',
    'suma',
    'pret',
    'importe',
    'precio',
    'monto',
    'valoare',
    'coste',
    'costo',
  ],
  expenseType: ['type', 'category', 'tip', 'categorie', 'tipo', 'categoria'],
  description: [
    'description',
    'notes',
    'note',
    'descriere',
    'notite',
    'observatii',
    'descripcion',
    'notas',
    'comentario',
    'comment',
    'comments',
  ],
};

/** Proposes a column (header text) for each field; each column is used once. */
export function proposeMapping(headers: string[]): Partial<Record<GenericField, string | null>> {
  const norm = headers.map(normalize);
  const used = new Set<number>();
  const out: Partial<Record<GenericField, string | null>> = {};
  const pick = (test: (h: string, w: string) => boolean, field: GenericField) => {
    for (const w of WORDS[field]) {
      const i = norm.findIndex((h, j) => !used.has(j) && test(h, w));
      if (i >= 0) {
        used.add(i);
        out[field] = headers[i] ?? null;
        return true;
      }
    }
    return false;
  };
  const wordIn = (h: string, w: string) => h === w || h.split(/[ ()]+/).includes(w) || h.startsWith(`${w} `);
  for (const field of GENERIC_FIELDS) pick((h, w) => h === w, field);
  for (const field of GENERIC_FIELDS) if (!(field in out)) pick(wordIn, field);
  for (const field of GENERIC_FIELDS) out[field] ??= null;
  return out;
}

/** Units a header names (`Miles`, `Odometer (mi)`, `Gallons`, `Fuel (imp gal)`); else km and litres. */
export function genericUnits(file: CsvFile): UnitsGuess {
  const headers = (file.rows[0]?.cells ?? []).map(normalize);
  const miles = headers.some((h) => /\bmiles?\b|\(mi\)/.test(h));
  const imperial = headers.some((h) => /\b(imp|uk|imperial) gal/.test(h));
  const gallons = headers.some((h) => /\bgallons?\b|\(gal\)|\bgal\b/.test(h));
  if (!miles && !gallons) return KM_AND_LITRES;
  return {
    distance: miles ? 'mi' : 'km',
    volume: imperial ? 'impgal' : gallons ? 'usgal' : 'l',
    reason: 'file',
  };
}

export function parseGeneric(file: CsvFile, c: Collector, mapping: ImportMapping | undefined) {
  const [head, ...rows] = file.rows;
  if (!head) return;
  const t = new Table(head.cells, rows);
  const columns = { ...proposeMapping(head.cells), ...(mapping?.columns ?? {}) };
  c.mapping = { headers: head.cells, columns };
  const col = (f: GenericField) => {
    const name = columns[f];
    return name ? head.cells.indexOf(name) : -1;
  };
  const [date, odo, liters, total, perLiter, amount] = [
    col('date'),
    col('odometer'),
    col('liters'),
    col('fuelPrice'),
    col('pricePerLiter'),
    col('amount'),
  ];
  if (date < 0) {
    c.error(head.line, 'NO_DATE_COLUMN');
    return;
  }
  const numbers = [odo, liters, total, perLiter, amount];
  const decimal = detectDecimal(t.values(...numbers));
  const [totalOf, amountOf] = [c.amounts(t, total, numbers), c.amounts(t, amount, numbers)];
  const order = detectDateOrder(t.values(date));
  for (const r of t.rows) {
    const d = parseDate(cell(r, date), order);
    const volume = parseNumber(cell(r, liters), decimal);
    const costMoney = c.moneyOf(r, t, [total, amount]);
    const cost = totalOf(r, costMoney) ?? amountOf(r, costMoney);
    if (volume !== null && volume > 0) {
      c.addFuel(r.line, {
        date: d,
        odometer: parseNumber(cell(r, odo), decimal),
        volume,
        total: cost,
        unitPrice: parseNumber(cell(r, perLiter), decimal),
        full: flag(r, col('fullTank'), true),
        missed: flag(r, col('missedPrevious'), false),
        money: c.moneyOf(r, t, [total, amount, perLiter]),
      });
    } else if (cost !== null) {
      const typeText = cell(r, col('expenseType'));
      const type: ExpenseType = expenseTypeOf(typeText || cell(r, col('description')));
      c.addExpense(r.line, d, type, cost, cell(r, col('description')) || typeText, costMoney);
    } else c.error(r.line, 'NO_VOLUME_OR_AMOUNT');
  }
}
