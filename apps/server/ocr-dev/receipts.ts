/**
 * Synthetic receipts for the OCR development set: realistic layouts of fuel, expense, service
 * (revision) and insurance documents in English, Romanian and Spanish, with the true field values
 * as a label. Rendered as SVG (DejaVu fonts) by sharp, then "photographed" in photo.ts.
 */

export type Kind = 'fuel' | 'expense' | 'revision' | 'insurance';
export type Lang = 'en' | 'ro' | 'es';
export type Label = Record<string, string | number | boolean | null>;
export type Receipt = { kind: Kind; lang: Lang; lines: Line[]; label: Label };
export type Line = {
  text: string;
  align?: 'left' | 'center' | 'right';
  bold?: boolean;
  size?: number;
  pair?: string;
};

/** Deterministic PRNG (mulberry32) so the set is the same on every machine. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
    chance: (p: number) => next() < p,
  };
}
type R = ReturnType<typeof rng>;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const MONTHS: Record<Lang, string[]> = {
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
  ro: [
    'ianuarie',
    'februarie',
    'martie',
    'aprilie',
    'mai',
    'iunie',
    'iulie',
    'august',
    'septembrie',
    'octombrie',
    'noiembrie',
    'decembrie',
  ],
  es: [
    'enero',
    'febrero',
    'marzo',
    'abril',
    'mayo',
    'junio',
    'julio',
    'agosto',
    'septiembre',
    'octubre',
    'noviembre',
    'diciembre',
  ],
};

function randomDate(r: R, from = 2023, to = 2025) {
  const y = r.int(from, to);
  const m = r.int(1, 12);
  const d = r.int(1, 28);
  return { y, m, d, iso: `${y}-${pad(m)}-${pad(d)}` };
}

function fmtDate(r: R, lang: Lang, dt: { y: number; m: number; d: number }) {
  const styles =
    lang === 'en'
      ? ['iso', 'dmy/', 'words', 'mdy-text']
      : lang === 'ro'
        ? ['dmy.', 'dmy.', 'dmy/', 'iso', 'words']
        : ['dmy/', 'dmy/yy', 'dmy-', 'words', 'iso'];
  const s = r.pick(styles);
  switch (s) {
    case 'iso':
      return `${dt.y}-${pad(dt.m)}-${pad(dt.d)}`;
    case 'dmy.':
      return `${pad(dt.d)}.${pad(dt.m)}.${dt.y}`;
    case 'dmy/':
      return `${pad(dt.d)}/${pad(dt.m)}/${dt.y}`;
    case 'dmy/yy':
      return `${pad(dt.d)}/${pad(dt.m)}/${String(dt.y).slice(2)}`;
    case 'dmy-':
      return `${pad(dt.d)}-${pad(dt.m)}-${dt.y}`;
    case 'mdy-text':
      return `${MONTHS.en[dt.m - 1]?.slice(0, 3)} ${dt.d}, ${dt.y}`;
    default: {
      const name = MONTHS[lang][dt.m - 1] ?? '';
      return lang === 'es'
        ? `${dt.d} de ${name} de ${dt.y}`
        : lang === 'ro'
          ? `${dt.d} ${name} ${dt.y}`
          : `${dt.d} ${name} ${dt.y}`;
    }
  }
}

/** 1234.5 → "1.234,50" (ro/es) or "1,234.50" (en); thousands separators only sometimes. */
function money(r: R, lang: Lang, n: number, decimals = 2, thousands = r.chance(0.6)) {
  const fixed = n.toFixed(decimals);
  const [int, dec] = fixed.split('.') as [string, string];
  const sep = lang === 'en' ? ',' : '.';
  const withSep = thousands ? int.replace(/\B(?=(\d{3})+(?!\d))/g, sep) : int;
  return decimals === 0 ? withSep : `${withSep}${lang === 'en' ? '.' : ','}${dec}`;
}

function km(r: R, lang: Lang, n: number) {
  return money(r, lang, n, 0, r.chance(0.7));
}

const round2 = (n: number) => Math.round(n * 100) / 100;

const STATIONS: Record<Lang, { name: string; addr: string; id: string }[]> = {
  ro: [
    { name: 'OMV PETROM MARKETING SRL', addr: 'Calea Floreasca 239, București', id: 'CIF: RO 11201891' },
    { name: 'ROMPETROL DOWNSTREAM SRL', addr: 'Str. Bucureşti 54, Cluj-Napoca', id: 'CUI: RO 1590120' },
    { name: 'MOL ROMÂNIA PETROLEUM', addr: 'B-dul Iuliu Maniu 7, Timișoara', id: 'CIF: RO 7745470' },
    { name: 'LUKOIL ROMÂNIA SRL', addr: 'Șos. Olteniței 250, Iași', id: 'CIF: RO 13733310' },
  ],
  es: [
    { name: 'REPSOL COMERCIAL S.A.', addr: 'Av. de la Constitución 12, Sevilla', id: 'CIF: A-80298839' },
    { name: 'CEPSA ESTACIÓN 4521', addr: 'Calle Mayor 88, Zaragoza', id: 'NIF: A28003119' },
    { name: 'GALP ENERGÍA ESPAÑA', addr: 'Ctra. N-340 km 12, Málaga', id: 'CIF: A-28097250' },
    { name: 'BP OIL ESPAÑA', addr: 'Paseo de Gracia 101, Barcelona', id: 'CIF: A-28135846' },
  ],
  en: [
    { name: 'SHELL SERVICE STATION', addr: '14 High Street, Reading RG1 2AB', id: 'VAT No: GB 235 7632 55' },
    { name: 'BP CONNECT', addr: '221 Main Road, Leeds LS2 9JT', id: 'VAT Reg 149 9870 36' },
    { name: 'ESSO EXPRESS', addr: '5 Kings Way, Manchester M20 5ED', id: 'VAT: GB 220 4481 97' },
    { name: 'TEXACO', addr: '77 Park Lane, Bristol BS1 5TR', id: 'VAT No 654 2231 09' },
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

function header(r: R, lang: Lang): Line[] {
  const s = r.pick(STATIONS[lang]);
  return [
    { text: s.name, align: 'center', bold: true },
    { text: s.addr, align: 'center' },
    { text: s.id, align: 'center' },
    { text: '' },
  ];
}

function fuel(r: R, lang: Lang): Receipt {
  const [grade, fuelType] = r.pick(GRADES[lang]);
  const electric = fuelType === 'ELECTRIC';
  const liters = round2(electric ? r.int(1500, 7000) / 100 : r.int(1200, 6800) / 100);
  const ppl =
    lang === 'ro' ? r.int(620, 790) / 100 : electric ? r.int(35, 79) / 100 : r.int(1399, 1899) / 1000;
  const pplDecimals = lang === 'ro' ? 2 : 3;
  const total = round2(liters * ppl);
  const dt = randomDate(r);
  const withOdo = r.chance(0.45);
  const odometer = withOdo ? r.int(15000, 289000) : null;
  const unit = electric
    ? 'kWh'
    : lang === 'en'
      ? r.pick(['L', 'litres'])
      : lang === 'ro'
        ? r.pick(['L', 'LITRI'])
        : r.pick(['L', 'LITROS']);
  const cur = lang === 'ro' ? 'LEI' : lang === 'es' ? '€' : r.pick(['£', '€']);
  const L = (s: string) => s;
  const lines: Line[] = header(r, lang);
  const dateText = fmtDate(r, lang, dt);
  const time = `${pad(r.int(6, 22))}:${pad(r.int(0, 59))}`;
  if (lang === 'ro') {
    lines.push({ text: 'BON FISCAL', align: 'center', bold: true });
    lines.push({ text: `Pompa ${r.int(1, 12)}` });
    lines.push({ text: grade, bold: true });
    if (r.chance(0.5)) {
      lines.push({
        text: `${money(r, lang, liters)} ${unit} x ${money(r, lang, ppl, pplDecimals)} LEI/${electric ? 'kWh' : 'L'}`,
      });
      lines.push({ text: `${money(r, lang, total)} A`, align: 'right' });
    } else {
      lines.push({ text: electric ? 'Energie' : 'Cantitate', pair: `${money(r, lang, liters)} ${unit}` });
      lines.push({ text: electric ? 'Preț/kWh' : 'Preț/L', pair: `${money(r, lang, ppl, pplDecimals)} LEI` });
    }
    lines.push({ text: 'SUBTOTAL', pair: money(r, lang, total) });
    lines.push({
      text: r.pick(['TOTAL', 'TOTAL DE PLATĂ', 'TOTAL LEI']),
      pair: money(r, lang, total),
      bold: true,
    });
    lines.push({ text: 'CARD', pair: money(r, lang, total) });
    lines.push({ text: `TVA A 19%`, pair: money(r, lang, round2(total - total / 1.19)) });
    if (odometer) lines.push({ text: r.pick(['Km bord', 'Kilometraj', 'KM']), pair: km(r, lang, odometer) });
    lines.push({ text: `DATA: ${dateText}  ORA: ${time}` });
    lines.push({ text: `BF nr. ${r.int(1000, 9999)}` });
  } else if (lang === 'es') {
    lines.push({ text: r.pick(['FACTURA SIMPLIFICADA', 'TICKET DE VENTA']), align: 'center', bold: true });
    lines.push({ text: `Fecha: ${dateText}  Hora: ${time}` });
    lines.push({ text: `Surtidor ${r.int(1, 12)}  ${L('Producto')}: ${grade}` });
    lines.push({ text: electric ? 'Energía' : 'Litros', pair: `${money(r, lang, liters)} ${unit}` });
    lines.push({ text: electric ? 'Precio/kWh' : 'Precio/L', pair: `${money(r, lang, ppl, pplDecimals)} €` });
    lines.push({ text: 'Base imponible', pair: money(r, lang, round2(total / 1.21)) });
    lines.push({ text: 'IVA 21%', pair: money(r, lang, round2(total - total / 1.21)) });
    lines.push({
      text: r.pick(['IMPORTE', 'TOTAL A PAGAR', 'TOTAL']),
      pair: `${money(r, lang, total)} €`,
      bold: true,
    });
    if (odometer) lines.push({ text: r.pick(['Kilómetros', 'KM']), pair: km(r, lang, odometer) });
    lines.push({ text: 'Pago con tarjeta' });
  } else {
    lines.push({ text: r.pick(['SALES RECEIPT', 'TAX INVOICE']), align: 'center', bold: true });
    lines.push({ text: `Date: ${dateText}   Time: ${time}` });
    lines.push({ text: `Pump ${r.int(1, 12)}  ${grade}` });
    if (r.chance(0.5)) {
      lines.push({
        text: `${money(r, lang, liters)} ${unit} @ ${money(r, lang, ppl, pplDecimals)}/${electric ? 'kWh' : 'L'}`,
      });
    } else {
      lines.push({ text: electric ? 'Energy' : 'Volume', pair: `${money(r, lang, liters)} ${unit}` });
      lines.push({
        text: electric ? 'Price/kWh' : 'Price/L',
        pair: `${cur}${money(r, lang, ppl, pplDecimals)}`,
      });
    }
    lines.push({ text: 'VAT 20% incl.', pair: money(r, lang, round2(total - total / 1.2)) });
    lines.push({
      text: r.pick(['TOTAL', 'TOTAL DUE', 'AMOUNT']),
      pair: `${cur}${money(r, lang, total)}`,
      bold: true,
    });
    if (odometer) lines.push({ text: r.pick(['Mileage', 'Odometer']), pair: `${km(r, lang, odometer)} km` });
    lines.push({ text: 'Card payment   Thank you' });
  }
  return {
    kind: 'fuel',
    lang,
    lines,
    label: { date: dt.iso, liters, fuelPrice: total, pricePerLiter: ppl, odometer, fuelType },
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

function expense(r: R, lang: Lang): Receipt {
  const e = r.pick(EXPENSES[lang]);
  const amount = round2(r.int(500, 95000) / 100);
  const dt = randomDate(r);
  const dateText = fmtDate(r, lang, dt);
  const vendor = VENDORS[lang][e.type] ?? 'AUTO SHOP';
  const lines: Line[] = [
    { text: vendor, align: 'center', bold: true },
    {
      text: lang === 'en' ? 'Receipt' : lang === 'ro' ? 'BON FISCAL' : 'FACTURA SIMPLIFICADA',
      align: 'center',
    },
    { text: '' },
    { text: `${lang === 'en' ? 'Date' : lang === 'ro' ? 'Data' : 'Fecha'}: ${dateText}` },
    { text: e.item, pair: money(r, lang, amount) },
  ];
  const totalLabel =
    lang === 'en'
      ? r.pick(['TOTAL', 'TOTAL DUE'])
      : lang === 'ro'
        ? r.pick(['TOTAL', 'TOTAL DE PLATĂ'])
        : r.pick(['TOTAL', 'IMPORTE', 'TOTAL A PAGAR']);
  const tax = lang === 'en' ? 'VAT 20%' : lang === 'ro' ? 'TVA 19%' : 'IVA 21%';
  lines.push({ text: tax, pair: money(r, lang, round2(amount - amount / 1.2)) });
  lines.push({
    text: totalLabel,
    pair: `${money(r, lang, amount)} ${lang === 'ro' ? 'LEI' : lang === 'es' ? 'EUR' : ''}`.trim(),
    bold: true,
  });
  lines.push({
    text:
      lang === 'en' ? 'Thank you for your visit' : lang === 'ro' ? 'Vă mulțumim!' : '¡Gracias por su visita!',
    align: 'center',
  });
  return {
    kind: 'expense',
    lang,
    lines,
    label: { date: dt.iso, amount, expenseType: e.type, description: e.item },
  };
}

const SERVICES: Record<Lang, string[]> = {
  ro: [
    'Revizie completă',
    'Schimb ulei și filtre',
    'Înlocuire plăcuțe frână',
    'Distribuție completă',
    'Revizie anuală',
  ],
  es: [
    'Revisión oficial',
    'Cambio de aceite y filtros',
    'Sustitución pastillas de freno',
    'Kit de distribución',
    'Mantenimiento anual',
  ],
  en: ['Full service', 'Oil and filter change', 'Brake pads replaced', 'Timing belt kit', 'Annual service'],
};

function revision(r: R, lang: Lang): Receipt {
  const desc = r.pick(SERVICES[lang]);
  const price = round2(r.int(8000, 250000) / 100);
  const kmv = r.int(10000, 280000);
  const dt = randomDate(r);
  const dateText = fmtDate(r, lang, dt);
  const miles = lang === 'en' && r.chance(0.5);
  const plate =
    lang === 'ro'
      ? `B ${r.int(10, 999)} XYZ`
      : lang === 'es'
        ? `${r.int(1000, 9999)} KLM`
        : `AB${r.int(10, 99)} CDE`;
  const lines: Line[] =
    lang === 'ro'
      ? [
          {
            text: r.pick(['AUTO SERVICE DACIA SRL', 'SERVICE AUTO MOTORVIP SRL', 'GARAJUL LUI ION SRL']),
            align: 'center',
            bold: true,
          },
          { text: `FACTURA nr. ${r.int(100, 9999)}`, align: 'center' },
          { text: `Data: ${dateText}` },
          { text: `Nr. înmatriculare: ${plate}` },
          { text: r.pick(['Kilometraj', 'Km bord', 'KM']), pair: km(r, lang, kmv) },
          { text: '' },
          { text: `Lucrare: ${desc}` },
          { text: 'Manoperă', pair: money(r, lang, round2(price * 0.4)) },
          { text: 'Piese', pair: money(r, lang, round2(price - round2(price * 0.4))) },
          { text: r.pick(['TOTAL DE PLATĂ', 'TOTAL']), pair: `${money(r, lang, price)} LEI`, bold: true },
        ]
      : lang === 'es'
        ? [
            {
              text: r.pick(['TALLERES MARTÍNEZ S.L.', 'AUTOMOCIÓN RUIZ', 'SERVICIO OFICIAL SEAT']),
              align: 'center',
              bold: true,
            },
            { text: `FACTURA Nº ${r.int(100, 9999)}`, align: 'center' },
            { text: `Fecha: ${dateText}` },
            { text: `Matrícula: ${plate}` },
            { text: r.pick(['Kilómetros', 'Km']), pair: km(r, lang, kmv) },
            { text: '' },
            { text: `Concepto: ${desc}` },
            { text: 'Mano de obra', pair: money(r, lang, round2(price * 0.4)) },
            { text: 'Recambios', pair: money(r, lang, round2(price - round2(price * 0.4))) },
            {
              text: r.pick(['TOTAL', 'TOTAL A PAGAR', 'IMPORTE TOTAL']),
              pair: `${money(r, lang, price)} €`,
              bold: true,
            },
          ]
        : [
            {
              text: r.pick(['SMITH & SONS GARAGE', 'QUICKFIT AUTOCENTRE', 'MAIN DEALER SERVICE']),
              align: 'center',
              bold: true,
            },
            { text: `INVOICE No. ${r.int(100, 9999)}`, align: 'center' },
            { text: `Date: ${dateText}` },
            { text: `Registration: ${plate}` },
            {
              text: r.pick(['Mileage', 'Odometer']),
              pair: `${km(r, lang, miles ? Math.round(kmv / 1.609344) : kmv)} ${miles ? 'miles' : 'km'}`,
            },
            { text: '' },
            { text: `Work: ${desc}` },
            { text: 'Labour', pair: money(r, lang, round2(price * 0.4)) },
            { text: 'Parts', pair: money(r, lang, round2(price - round2(price * 0.4))) },
            {
              text: r.pick(['TOTAL', 'TOTAL DUE', 'AMOUNT DUE']),
              pair: `£${money(r, lang, price)}`,
              bold: true,
            },
          ];
  // A UK garage may print miles; the record keeps km (converted, as the extractor does).
  const kmLabel = miles ? Math.round(Math.round(kmv / 1.609344) * 1.609344) : kmv;
  return { kind: 'revision', lang, lines, label: { date: dt.iso, km: kmLabel, price, description: desc } };
}

const INSURERS: Record<Lang, string[]> = {
  ro: ['Allianz-Țiriac Asigurări', 'Groupama Asigurări', 'Omniasig VIG', 'Generali România', 'Asirom VIG'],
  es: ['Mapfre', 'Línea Directa', 'Mutua Madrileña', 'AXA Seguros', 'Allianz Seguros'],
  en: ['Aviva', 'Direct Line', 'Admiral', 'Churchill', 'LV='],
};
const COVER: Record<Lang, string[]> = {
  ro: ['RCA', 'CASCO'],
  es: ['Terceros', 'Todo riesgo', 'Terceros ampliado'],
  en: ['Third party', 'Comprehensive', 'Third party, fire and theft'],
};

function insurance(r: R, lang: Lang): Receipt {
  const provider = r.pick(INSURERS[lang]);
  const coverageType = r.pick(COVER[lang]);
  const start = randomDate(r, 2024, 2025);
  const months = r.pick([6, 12]);
  const endM0 = start.m - 1 + months;
  const ey = start.y + Math.floor(endM0 / 12);
  const em = (endM0 % 12) + 1;
  const ed = Math.max(1, start.d - 1);
  const end = { y: ey, m: em, d: ed, iso: `${ey}-${pad(em)}-${pad(ed)}` };
  const price = round2(r.int(30000, 450000) / 100);
  const reminderOff = r.chance(0.15);
  let policyNumber: string;
  const lines: Line[] = [];
  if (lang === 'ro') {
    const serie = `RO/${pad(r.int(1, 99))}/${r.pick(['J25', 'Z25', 'V24', 'A24'])}/${r.pick(['AB', 'KF', 'XT'])}`;
    const nr = String(r.int(100000000, 999999999));
    policyNumber = `${serie} ${nr}`;
    lines.push({ text: `${provider.toUpperCase()} S.A.`, align: 'center', bold: true });
    lines.push({ text: `POLIȚĂ DE ASIGURARE ${coverageType}`, align: 'center', bold: true });
    lines.push({ text: `Seria ${serie} Nr. ${nr}` });
    lines.push({ text: `Valabilă de la ${fmtDate(r, lang, start)} până la ${fmtDate(r, lang, end)}` });
    lines.push({ text: `Asigurat: POPESCU ION` });
    lines.push({ text: `Vehicul: Dacia Logan, B ${r.int(10, 99)} ABC` });
    lines.push({ text: 'Primă de asigurare', pair: `${money(r, lang, price)} LEI`, bold: true });
    if (reminderOff) lines.push({ text: 'Notificări de reînnoire: NU' });
  } else if (lang === 'es') {
    policyNumber = `${r.pick(['POL', '0'])}${r.int(10000000, 99999999)}`;
    lines.push({ text: provider.toUpperCase(), align: 'center', bold: true });
    lines.push({ text: 'CERTIFICADO DE SEGURO DE AUTOMÓVIL', align: 'center', bold: true });
    lines.push({ text: `Nº de póliza: ${policyNumber}` });
    lines.push({ text: `Modalidad: ${coverageType}` });
    lines.push({ text: `Efecto: ${fmtDate(r, lang, start)}` });
    lines.push({ text: `Vencimiento: ${fmtDate(r, lang, end)}` });
    lines.push({ text: 'Tomador: GARCÍA LÓPEZ, MARÍA' });
    lines.push({ text: 'Prima total anual', pair: `${money(r, lang, price)} €`, bold: true });
    if (reminderOff) lines.push({ text: 'Aviso de renovación: NO' });
  } else {
    policyNumber = `${r.pick(['MTR', 'DL', 'ADM'])}-${r.int(1000000, 9999999)}`;
    lines.push({ text: provider.toUpperCase(), align: 'center', bold: true });
    lines.push({ text: 'CERTIFICATE OF MOTOR INSURANCE', align: 'center', bold: true });
    lines.push({ text: `Policy number: ${policyNumber}` });
    lines.push({ text: `Cover: ${coverageType}` });
    lines.push({ text: `Effective date: ${fmtDate(r, lang, start)}` });
    lines.push({ text: `Expiry date: ${fmtDate(r, lang, end)}` });
    lines.push({ text: 'Policyholder: JOHN SMITH' });
    lines.push({ text: 'Total premium', pair: `£${money(r, lang, price)}`, bold: true });
    if (reminderOff) lines.push({ text: 'Renewal reminders: No' });
  }
  return {
    kind: 'insurance',
    lang,
    lines,
    label: {
      provider,
      policyNumber,
      coverageType,
      startDate: start.iso,
      endDate: end.iso,
      price,
      reminderEnabled: !reminderOff,
    },
  };
}

export function makeReceipt(kind: Kind, lang: Lang, seed: number): Receipt {
  const r = rng(seed);
  return { fuel, expense, revision, insurance }[kind](r, lang);
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The receipt as an SVG sheet: 58–80 mm thermal paper look, monospace or sans. */
export function receiptSvg(rc: Receipt, seed: number): { svg: string; width: number; height: number } {
  const r = rng(seed * 7 + 1);
  const font = r.pick(['DejaVu Sans Mono', 'DejaVu Sans Mono', 'DejaVu Sans', 'Liberation Mono']);
  const size = r.int(26, 32);
  const lh = Math.round(size * 1.45);
  const width = r.int(760, 900);
  const margin = 40;
  const height = margin * 2 + lh * (rc.lines.length + 1);
  const paper = r.pick(['#ffffff', '#fbfaf5', '#f6f4ee']);
  const ink = r.pick(['#111111', '#222222', '#2b2b3a']);
  const out: string[] = [];
  rc.lines.forEach((l, i) => {
    const y = margin + lh * (i + 1);
    const weight = l.bold ? 'bold' : 'normal';
    const common = `font-family="${font}" font-size="${l.size ?? size}" font-weight="${weight}" fill="${ink}"`;
    if (l.pair !== undefined) {
      out.push(`<text x="${margin}" y="${y}" ${common}>${esc(l.text)}</text>`);
      out.push(`<text x="${width - margin}" y="${y}" text-anchor="end" ${common}>${esc(l.pair)}</text>`);
    } else {
      const [x, anchor] =
        l.align === 'center'
          ? [width / 2, 'middle']
          : l.align === 'right'
            ? [width - margin, 'end']
            : [margin, 'start'];
      out.push(`<text x="${x}" y="${y}" text-anchor="${anchor}" ${common}>${esc(l.text)}</text>`);
    }
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${paper}"/>${out.join('')}</svg>`;
  return { svg, width, height };
}

/** A one-page PDF with a real text layer (Helvetica, WinAnsi), written by hand: no dependency. */
export function receiptPdf(rc: Receipt): Buffer {
  const ops: string[] = ['BT', '/F1 11 Tf', '14 TL', '60 780 Td'];
  const winAnsi = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, (m) => m)
      .normalize('NFC')
      .replace(/[ȘșŞş]/g, (c) => (c === c.toUpperCase() ? 'S' : 's'))
      .replace(/[ȚțŢţ]/g, (c) => (c === c.toUpperCase() ? 'T' : 't'))
      .replace(/[Ăă]/g, (c) => (c === 'Ă' ? 'A' : 'a'))
      .replace(/€/g, 'EUR')
      .replace(/[\\()]/g, (c) => `\\${c}`);
  for (const l of rc.lines) {
    const text = l.pair !== undefined ? `${l.text}: ${l.pair}` : l.text;
    ops.push(`(${winAnsi(text)}) '`);
  }
  ops.push('ET');
  const stream = Buffer.from(ops.join('\n'), 'latin1');
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream.toString('latin1')}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
