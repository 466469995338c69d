/**
 * Till slips: fuel receipts, expense receipts (parking, tolls, wash, tyres…) and a garage's short
 * receipt, in the layouts real tills print: "41.27 Litres @1.739 /L" on one line, label and value
 * pairs, or a "Litros  Precio/L  Importe" header row above the values in any column order; with the
 * lines that get in the way (card number, loyalty points, cash and change, VAT breakdown).
 */
import {
  dateStyle,
  fmtDate,
  money as fmtMoney,
  km,
  type Lang,
  pad,
  type R,
  randomDate,
  round2,
  time,
} from './format.js';
import type { Line, Receipt } from './types.js';

const STATIONS: Record<Lang, { name: string; addr: string; id: string }[]> = {
  ro: [
    { name: 'OMV PETROM MARKETING SRL', addr: 'Calea Floreasca 239, București', id: 'CIF: RO 11201891' },
    { name: 'ROMPETROL DOWNSTREAM SRL', addr: 'Str. Bucureşti 54, Cluj-Napoca', id: 'CUI: RO 1590120' },
    { name: 'MOL ROMÂNIA PETROLEUM', addr: 'B-dul Iuliu Maniu 7, Timișoara', id: 'CIF: RO 7745470' },
    { name: 'LUKOIL ROMÂNIA SRL', addr: 'Șos. Olteniței 250, Iași', id: 'CIF: RO 13733310' },
    { name: 'SOCAR PETROLEUM SA', addr: 'DN1 km 22, Otopeni, jud. Ilfov', id: 'CUI: RO 22212213' },
  ],
  es: [
    { name: 'REPSOL COMERCIAL S.A.', addr: 'Av. de la Constitución 12, Sevilla', id: 'CIF: A-80298839' },
    { name: 'CEPSA ESTACIÓN 4521', addr: 'Calle Mayor 88, Zaragoza', id: 'NIF: A28003119' },
    { name: 'GALP ENERGÍA ESPAÑA', addr: 'Ctra. N-340 km 12, Málaga', id: 'CIF: A-28097250' },
    { name: 'BP OIL ESPAÑA', addr: 'Paseo de Gracia 101, Barcelona', id: 'CIF: A-28135846' },
    { name: 'PLENOIL E.S. 112', addr: 'Pol. Ind. Los Olivos 3, Getafe', id: 'CIF: B-86440807' },
  ],
  en: [
    { name: 'SHELL SERVICE STATION', addr: '14 High Street, Reading RG1 2AB', id: 'VAT No: GB 235 7632 55' },
    { name: 'BP CONNECT', addr: '221 Main Road, Leeds LS2 9JT', id: 'VAT Reg 149 9870 36' },
    { name: 'ESSO EXPRESS', addr: '5 Kings Way, Manchester M20 5ED', id: 'VAT: GB 220 4481 97' },
    { name: 'TEXACO', addr: '77 Park Lane, Bristol BS1 5TR', id: 'VAT No 654 2231 09' },
    { name: 'TESCO PETROL FILLING STN', addr: 'Lower Road, Cardiff CF11 8AZ', id: 'VAT 220 4302 31' },
  ],
};

const GRADES: Record<Lang, [string, string][]> = {
  ro: [
    ['Motorină Standard', 'DIESEL'],
    ['MOTORINA EXTRA', 'DIESEL'],
    ['Benzină 95', 'PETROL'],
    ['BENZINA EFIX 95', 'PETROL'],
    ['GPL AUTO', 'GPL'],
    ['Încărcare rapidă DC', 'ELECTRIC'],
  ],
  es: [
    ['Gasóleo A', 'DIESEL'],
    ['DIESEL e+', 'DIESEL'],
    ['Gasolina 95', 'PETROL'],
    ['SIN PLOMO 98', 'PETROL'],
    ['Autogas GLP', 'GPL'],
    ['Recarga eléctrica', 'ELECTRIC'],
  ],
  en: [
    ['Diesel', 'DIESEL'],
    ['Unleaded 95', 'PETROL'],
    ['Super Unleaded', 'PETROL'],
    ['V-Power Diesel', 'DIESEL'],
    ['LPG', 'GPL'],
    ['EV rapid charge', 'ELECTRIC'],
  ],
};

/** Lines that every till prints and no field comes from. */
function noise(r: R, lang: Lang, total: number): Line[] {
  const out: Line[] = [];
  const card = `**** **** **** ${r.int(1000, 9999)}`;
  if (r.chance(0.5))
    out.push({ text: r.pick(['VISA', 'MASTERCARD', 'DEBIT MASTERCARD', 'MAESTRO']), pair: card });
  if (r.chance(0.4))
    out.push({
      text: `${lang === 'es' ? 'AUT.' : 'AUTH'} ${r.int(100000, 999999)}  TID ${r.int(10000000, 99999999)}`,
    });
  if (r.chance(0.35))
    out.push({
      text:
        lang === 'en'
          ? `Nectar points earned ${r.int(5, 180)}`
          : lang === 'ro'
            ? `Puncte fidelitate: ${r.int(5, 180)}`
            : `Puntos acumulados: ${r.int(5, 180)}`,
    });
  if (r.chance(0.25))
    out.push({
      text: lang === 'en' ? 'Balance of points' : lang === 'ro' ? 'Sold puncte' : 'Saldo de puntos',
      pair: String(r.int(200, 9000)),
    });
  if (r.chance(0.3) && total > 5)
    out.push({
      text: lang === 'en' ? 'You saved' : lang === 'ro' ? 'Economie' : 'Ahorro',
      pair: fmtMoney(r, lang, round2(r.int(5, 60) / 100)),
    });
  return out;
}

/** Cash handed over and change given back: two amounts that are not the total. */
function payment(r: R, lang: Lang, total: number, money: (n: number) => string): Line[] {
  if (r.chance(0.6))
    return [
      {
        text:
          lang === 'en'
            ? r.pick(['CARD', 'Card payment', 'CONTACTLESS'])
            : lang === 'ro'
              ? 'CARD'
              : 'TARJETA',
        pair: money(total),
      },
    ];
  const cash = Math.ceil(total / 10) * 10 + r.pick([0, 10, 50]);
  return [
    { text: lang === 'en' ? 'CASH' : lang === 'ro' ? 'NUMERAR' : 'EFECTIVO', pair: money(cash) },
    { text: lang === 'en' ? 'CHANGE' : lang === 'ro' ? 'REST' : 'CAMBIO', pair: money(round2(cash - total)) },
  ];
}

function stationHeader(r: R, lang: Lang): Line[] {
  const s = r.pick(STATIONS[lang]);
  const lines: Line[] = [{ text: s.name, align: 'center', bold: true, scale: r.pick([1, 1.15, 1.3]) }];
  lines.push({ text: s.addr, align: 'center' });
  if (r.chance(0.4))
    lines.push({
      text: `Tel. ${lang === 'en' ? '0118' : lang === 'ro' ? '021' : '91'} ${r.int(100, 999)} ${r.int(1000, 9999)}`,
      align: 'center',
    });
  lines.push({ text: s.id, align: 'center' });
  lines.push({ text: '', rule: r.chance(0.5) });
  return lines;
}

const QTY_HEAD: Record<Lang, string[]> = {
  en: ['Litres', 'Qty', 'Volume', 'Ltrs'],
  ro: ['Cantitate', 'Litri', 'Cant.'],
  es: ['Litros', 'Cantidad', 'Ltrs'],
};
const PPL_HEAD: Record<Lang, string[]> = {
  en: ['Price/L', 'Unit price', 'PPL', '£/L'],
  ro: ['Preț/L', 'Preț unitar', 'Pret/litru'],
  es: ['Precio/L', 'PVP/L', 'Precio'],
};
const AMT_HEAD: Record<Lang, string[]> = {
  en: ['Amount', 'Value', 'Total'],
  ro: ['Valoare', 'Suma', 'Total'],
  es: ['Importe', 'Total', 'Euros'],
};
const DATE_WORD: Record<Lang, string[]> = {
  en: ['Date:', 'Date', 'DATE'],
  ro: ['DATA:', 'Data:', 'DATA'],
  es: ['Fecha:', 'FECHA', 'Fecha'],
};

export function fuel(r: R, lang: Lang): Receipt {
  const [grade, fuelType] = r.pick(GRADES[lang]);
  const electric = fuelType === 'ELECTRIC';
  const liters = round2(electric ? r.int(1500, 7000) / 100 : r.int(800, 6800) / 100);
  const pplDecimals = lang === 'ro' ? r.pick([2, 2, 3]) : 3;
  const ppl =
    lang === 'ro'
      ? r.int(620, 790) / (pplDecimals === 2 ? 100 : 100) + (pplDecimals === 3 ? r.int(0, 9) / 1000 : 0)
      : electric
        ? r.int(35, 79) / 100
        : r.int(1399, 1899) / 1000;
  const price = Math.round(ppl * 1000) / 1000;
  const total = round2(liters * price);
  const dt = randomDate(r);
  const ds = dateStyle(r, lang);
  const odometer = r.chance(0.45) ? r.int(15000, 289000) : null;
  const unit = electric
    ? 'kWh'
    : lang === 'en'
      ? r.pick(['L', 'Litres', 'LTR', 'litres'])
      : lang === 'ro'
        ? r.pick(['L', 'LITRI', 'l'])
        : r.pick(['L', 'LITROS', 'l']);
  const cur =
    lang === 'ro' ? r.pick(['LEI', 'RON']) : lang === 'es' ? r.pick(['€', 'EUR']) : r.pick(['£', '£', '€']);
  const pre = cur === '£';
  const money = (n: number, d = 2) =>
    pre ? `£${fmtMoney(r, lang, n, d)}` : `${fmtMoney(r, lang, n, d)} ${cur}`;
  const bare = (n: number, d = 2) => fmtMoney(r, lang, n, d);
  const per = electric ? 'kWh' : 'L';
  const lines: Line[] = stationHeader(r, lang);
  const title =
    lang === 'ro'
      ? r.pick(['BON FISCAL', 'BON FISCAL', 'CHITANȚĂ'])
      : lang === 'es'
        ? r.pick(['FACTURA SIMPLIFICADA', 'TICKET DE VENTA', 'TIQUE'])
        : r.pick(['SALES RECEIPT', 'TAX INVOICE', 'CUSTOMER COPY']);
  lines.push({ text: title, align: 'center', bold: true });
  const dateLine: Line = r.chance(0.8)
    ? {
        text: `${r.pick(DATE_WORD[lang])} ${fmtDate(lang, dt, ds)}  ${r.chance(0.5) ? (lang === 'ro' ? 'ORA: ' : lang === 'es' ? 'Hora: ' : 'Time: ') : ''}${time(r)}`,
      }
    : { text: `${fmtDate(lang, dt, ds)} ${time(r)}`, align: r.pick(['left', 'center'] as const) };
  const dateFirst = r.chance(0.5);
  if (dateFirst) lines.push(dateLine);
  const pump =
    lang === 'en' ? 'Pump' : lang === 'ro' ? r.pick(['Pompa', 'POMPA']) : r.pick(['Surtidor', 'Manguera']);
  lines.push({ text: `${pump} ${r.int(1, 12)}${r.chance(0.5) ? `  ${grade}` : ''}`, bold: r.chance(0.3) });
  if (!lines[lines.length - 1]?.text.includes(grade)) lines.push({ text: grade, bold: true });

  // The quantities, in one of the ways tills print them.
  const layout = r.pick(['inline', 'pairs', 'header', 'header', 'fiscal'] as const);
  if (layout === 'inline') {
    const pence = lang === 'en' && pre && !electric && r.chance(0.3);
    const at =
      lang === 'en'
        ? pence
          ? `${bare(liters)} ${unit} @ ${(price * 100).toFixed(1)}p/${per}`
          : r.pick([
              `${bare(liters)} ${unit} @${bare(price, 3)} /${per}`,
              `${bare(liters)}${unit}@${bare(price, 3)}/${per}`,
              `${bare(liters)} ${unit} @ ${money(price, 3)}/${per}`,
            ])
        : r.chance(0.5)
          ? `${bare(liters)} ${unit} x ${bare(price, pplDecimals)} ${cur}/${per}`
          : `${bare(liters)} ${unit} x ${bare(price, pplDecimals)}`;
    lines.push({ text: at });
    lines.push({
      text: r.chance(0.5) ? `${bare(total)} ${lang === 'ro' ? 'A' : ''}`.trim() : bare(total),
      align: 'right',
    });
  } else if (layout === 'pairs') {
    const q =
      lang === 'en'
        ? r.pick(['Volume', 'Quantity', 'Litres'])
        : lang === 'ro'
          ? r.pick(['Cantitate', 'Litri'])
          : r.pick(['Litros', 'Cantidad']);
    const p =
      lang === 'en'
        ? r.pick(['Price/L', 'Price per litre', 'Unit price'])
        : lang === 'ro'
          ? r.pick(['Preț/L', 'Preț unitar'])
          : r.pick(['Precio/L', 'Precio litro']);
    lines.push({
      text: electric ? (lang === 'en' ? 'Energy' : lang === 'ro' ? 'Energie' : 'Energía') : q,
      pair: `${bare(liters)} ${unit}`,
    });
    lines.push({ text: electric ? `${p.split('/')[0]}/kWh` : p, pair: money(price, pplDecimals) });
  } else if (layout === 'header') {
    // A header row above the values, columns in any order (some tills put the amount first).
    const cells: [string, string][] = [
      [r.pick(QTY_HEAD[lang]), bare(liters)],
      [r.pick(PPL_HEAD[lang]), bare(price, pplDecimals)],
      [r.pick(AMT_HEAD[lang]), bare(total)],
    ];
    const order = r.chance(0.5) ? cells : r.shuffle(cells);
    const withProduct = r.chance(0.4);
    const head = [
      ...(withProduct ? [lang === 'en' ? 'Product' : lang === 'ro' ? 'Produs' : 'Producto'] : []),
      ...order.map((c) => c[0]),
    ];
    const vals = [...(withProduct ? [grade] : []), ...order.map((c) => c[1])];
    lines.push({ text: '', cols: head, bold: r.chance(0.5) });
    lines.push({ text: '', cols: vals });
  } else {
    // Romanian fiscal printer style: "45,670 x 7,450" then the product with its value and VAT class.
    lines.push({ text: `${fmtMoney(r, lang, liters, 3, false)} ${unit} x ${bare(price, pplDecimals)}` });
    lines.push({
      text: grade.toUpperCase(),
      pair: `${bare(total)} ${lang === 'ro' ? 'A' : lang === 'es' ? '21%' : 'A'}`,
    });
  }
  if (r.chance(0.5)) lines.push({ text: 'SUBTOTAL', pair: bare(total) });
  const vatRate = lang === 'ro' ? 19 : lang === 'es' ? 21 : 20;
  const vat = round2(total - total / (1 + vatRate / 100));
  if (lang === 'es' && r.chance(0.6)) lines.push({ text: 'Base imponible', pair: bare(round2(total - vat)) });
  const totalLabel =
    lang === 'ro'
      ? r.pick(['TOTAL', 'TOTAL DE PLATĂ', 'TOTAL LEI'])
      : lang === 'es'
        ? r.pick(['IMPORTE', 'TOTAL A PAGAR', 'TOTAL', 'TOTAL EUROS'])
        : r.pick(['TOTAL', 'TOTAL DUE', 'AMOUNT', 'BALANCE DUE']);
  const totalLine: Line = { text: totalLabel, pair: money(total), bold: true, scale: r.pick([1, 1, 1.2]) };
  const vatLine: Line = {
    text: lang === 'ro' ? `TVA A ${vatRate}%` : lang === 'es' ? `IVA ${vatRate}%` : `VAT ${vatRate}% incl.`,
    pair: bare(vat),
  };
  if (r.chance(0.5)) lines.push(totalLine, vatLine);
  else lines.push(vatLine, totalLine);
  lines.push(...payment(r, lang, total, money));
  if (odometer)
    lines.push(
      r.chance(0.7)
        ? {
            text:
              lang === 'en'
                ? r.pick(['Mileage', 'Odometer', 'Odo'])
                : lang === 'ro'
                  ? r.pick(['Km bord', 'Kilometraj', 'KM'])
                  : r.pick(['Kilómetros', 'KM', 'Km vehículo']),
            pair: `${km(r, lang, odometer)}${lang === 'en' || r.chance(0.3) ? ' km' : ''}`,
          }
        : { text: `${lang === 'es' ? 'Km' : 'KM'}: ${km(r, lang, odometer)}` },
    );
  if (r.chance(0.4))
    lines.push({
      text: lang === 'en' ? 'Reg' : lang === 'ro' ? 'Nr. auto' : 'Matrícula',
      pair:
        lang === 'ro'
          ? `B ${r.int(10, 999)} ${r.pick(['XYZ', 'ABC', 'KLM'])}`
          : lang === 'es'
            ? `${r.int(1000, 9999)} KLM`
            : `AB${r.int(10, 99)} CDE`,
    });
  lines.push(...noise(r, lang, total));
  if (!dateFirst) lines.push(dateLine);
  lines.push({
    text:
      lang === 'ro'
        ? `BF nr. ${r.int(1000, 9999)}  Z ${pad(r.int(1, 999), 4)}`
        : lang === 'es'
          ? `Ticket nº ${r.int(10000, 99999)}`
          : `Receipt ${r.int(1000, 9999)}/${r.int(10, 99)}`,
  });
  if (r.chance(0.5))
    lines.push({
      text:
        lang === 'en'
          ? 'Thank you. Drive safely!'
          : lang === 'ro'
            ? 'Vă mulțumim! Drum bun!'
            : '¡Gracias y buen viaje!',
      align: 'center',
    });
  return {
    kind: 'fuel',
    lang,
    format: 'slip',
    lines,
    label: { date: dt.iso, liters, fuelPrice: total, pricePerLiter: price, odometer, fuelType },
  };
}

const EXPENSES: Record<Lang, { item: string; type: string }[]> = {
  ro: [
    { item: 'Parcare zona 1', type: 'Parking' },
    { item: 'Taxa de pod Fetești', type: 'Tolls' },
    { item: 'Rovinietă 12 luni', type: 'Tolls' },
    { item: 'Spălătorie auto', type: 'Wash' },
    { item: 'Vulcanizare echilibrare', type: 'Tyres' },
    { item: 'Anvelope iarnă 4 buc', type: 'Tyres' },
    { item: 'Reparație alternator', type: 'Repair' },
    { item: 'Impozit auto', type: 'Tax' },
  ],
  es: [
    { item: 'Aparcamiento centro', type: 'Parking' },
    { item: 'Peaje autopista AP-7', type: 'Tolls' },
    { item: 'Lavado completo', type: 'Wash' },
    { item: 'Neumáticos 205/55 R16', type: 'Tyres' },
    { item: 'Reparación embrague', type: 'Repair' },
    { item: 'Impuesto de circulación', type: 'Tax' },
  ],
  en: [
    { item: 'Car park 3 hours', type: 'Parking' },
    { item: 'Toll M6 plaza', type: 'Tolls' },
    { item: 'Car wash deluxe', type: 'Wash' },
    { item: 'Tyres 2 x 205/55 R16', type: 'Tyres' },
    { item: 'Repair brake caliper', type: 'Repair' },
    { item: 'Vehicle tax', type: 'Tax' },
  ],
};

/** Who sells what: a parking receipt comes from a car park, a toll receipt from the motorway. */
const VENDORS: Record<Lang, Record<string, string>> = {
  ro: {
    Parking: 'PARKING CENTRAL SA',
    Tolls: 'CNAIR SA',
    Wash: 'EUROWASH SRL',
    Tyres: 'VULCANIZARE EXPRES SRL',
    Repair: 'AUTO SERVICE MARIS SRL',
    Tax: 'PRIMARIA SECTOR 3',
  },
  es: {
    Parking: 'SABA APARCAMIENTOS',
    Tolls: 'AUTOPISTAS AUMAR',
    Wash: 'ELEFANTE AZUL',
    Tyres: 'NEUMÁTICOS SOLEDAD',
    Repair: 'TALLERES GARCÍA S.L.',
    Tax: 'AYUNTAMIENTO DE MADRID',
  },
  en: {
    Parking: 'NCP CAR PARKS',
    Tolls: 'M6 TOLL LTD',
    Wash: 'IMO CAR WASH',
    Tyres: 'KWIK FIT',
    Repair: 'HALFORDS AUTOCENTRE',
    Tax: 'DVLA',
  },
};

export function expense(r: R, lang: Lang): Receipt {
  const e = r.pick(EXPENSES[lang]);
  const amount = round2(r.int(500, 95000) / 100);
  const dt = randomDate(r);
  const ds = dateStyle(r, lang);
  const money = (n: number) => fmtMoney(r, lang, n);
  const vendor = VENDORS[lang][e.type] ?? 'AUTO SHOP';
  const lines: Line[] = [
    { text: vendor, align: 'center', bold: true, scale: r.pick([1, 1.2]) },
    {
      text:
        lang === 'en'
          ? r.pick(['Receipt', 'VAT RECEIPT', 'Customer receipt'])
          : lang === 'ro'
            ? r.pick(['BON FISCAL', 'CHITANȚĂ'])
            : r.pick(['FACTURA SIMPLIFICADA', 'TICKET']),
      align: 'center',
    },
    { text: '', rule: r.chance(0.5) },
    { text: `${r.pick(DATE_WORD[lang])} ${fmtDate(lang, dt, ds)}${r.chance(0.5) ? `  ${time(r)}` : ''}` },
  ];
  if (e.type === 'Parking' && r.chance(0.7)) {
    // Entry and exit times and the stay: numbers with colons and hours, none of them the amount.
    const h = r.int(7, 15);
    const stay = r.int(1, 6);
    lines.push({
      text: lang === 'en' ? 'Entry' : lang === 'ro' ? 'Intrare' : 'Entrada',
      pair: `${pad(h)}:${pad(r.int(0, 59))}`,
    });
    lines.push({
      text: lang === 'en' ? 'Exit' : lang === 'ro' ? 'Ieșire' : 'Salida',
      pair: `${pad(h + stay)}:${pad(r.int(0, 59))}`,
    });
    lines.push({
      text: lang === 'en' ? 'Duration' : lang === 'ro' ? 'Durată' : 'Duración',
      pair: `${stay}h ${r.int(0, 59)}min`,
    });
  }
  if (e.type === 'Tolls' && r.chance(0.6))
    lines.push({
      text: `${lang === 'en' ? 'Class' : lang === 'ro' ? 'Categoria' : 'Categoría'} ${r.int(1, 2)}   ${lang === 'en' ? 'Lane' : lang === 'ro' ? 'Cabina' : 'Vía'} ${r.int(1, 14)}`,
    });
  if (e.type === 'Tyres' && r.chance(0.6)) {
    const n = r.pick([2, 4]);
    lines.push({ text: e.item });
    lines.push({ text: `${n} x ${money(round2(amount / n))}`, pair: money(round2(round2(amount / n) * n)) });
    const total = round2(round2(amount / n) * n);
    return finishExpense(r, lang, lines, total, e, dt.iso);
  }
  lines.push({ text: e.item, pair: money(amount) });
  return finishExpense(r, lang, lines, amount, e, dt.iso);
}

function finishExpense(
  r: R,
  lang: Lang,
  lines: Line[],
  amount: number,
  e: { item: string; type: string },
  date: string,
): Receipt {
  const money = (n: number) => fmtMoney(r, lang, n);
  const totalLabel =
    lang === 'en'
      ? r.pick(['TOTAL', 'TOTAL DUE', 'Amount paid'])
      : lang === 'ro'
        ? r.pick(['TOTAL', 'TOTAL DE PLATĂ'])
        : r.pick(['TOTAL', 'IMPORTE', 'TOTAL A PAGAR']);
  const rate = lang === 'en' ? 20 : lang === 'ro' ? 19 : 21;
  const tax = lang === 'en' ? `VAT ${rate}%` : lang === 'ro' ? `TVA ${rate}%` : `IVA ${rate}%`;
  if (e.type !== 'Tax') lines.push({ text: tax, pair: money(round2(amount - amount / (1 + rate / 100))) });
  lines.push({
    text: totalLabel,
    pair: `${money(amount)} ${lang === 'ro' ? 'LEI' : lang === 'es' ? 'EUR' : ''}`.trim(),
    bold: true,
  });
  lines.push(...payment(r, lang, amount, money));
  lines.push(...noise(r, lang, amount).slice(0, 2));
  lines.push({
    text:
      lang === 'en' ? 'Thank you for your visit' : lang === 'ro' ? 'Vă mulțumim!' : '¡Gracias por su visita!',
    align: 'center',
  });
  return {
    kind: 'expense',
    lang,
    format: 'slip',
    lines,
    label: { date, amount, expenseType: e.type, description: e.item },
  };
}
