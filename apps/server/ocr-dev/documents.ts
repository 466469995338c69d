/**
 * Multi-section A4 documents: motor insurance policies (policy details, vehicle, premium with its
 * instalments, signatures) and garage invoices (customer, vehicle, a table of labour and parts, net,
 * VAT and gross), plus the short receipt some garages print instead. Each carries the numbers that
 * get in the way: the issue date, the vehicle's year, instalments, sums insured, the next service.
 */
import {
  addDays,
  dateStyle,
  fmtDate,
  money as fmtMoney,
  km,
  type Lang,
  type R,
  randomDate,
  round2,
  termEnd,
} from './format.js';
import type { Line, Receipt } from './types.js';

const H = (text: string): Line => ({ text, heading: true });
const two = (a: string, b: string): Line => ({ text: '', cols: [a, b], at: [0, 0.52], leftAll: true });

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

function policyNumber(r: R, lang: Lang): { value: string; printed: string } {
  if (lang === 'ro') {
    if (r.chance(0.6)) {
      const serie = `RO/${String(r.int(1, 99)).padStart(2, '0')}/${r.pick(['J25', 'Z25', 'V24', 'A24'])}/${r.pick(['AB', 'KF', 'XT'])}`;
      const nr = String(r.int(100000000, 999999999));
      return {
        value: `${serie} ${nr}`,
        printed: r.pick([`Seria ${serie} Nr. ${nr}`, `Seria: ${serie}  Nr.: ${nr}`]),
      };
    }
    const nr = String(r.int(10000000, 99999999));
    return {
      value: nr,
      printed: r.pick([
        `Poliță nr. ${nr}`,
        `Nr. poliță: ${nr}`,
        `Nr. ${nr}`,
        `Poliță RCA nr. ${nr}`,
        `Număr poliță: ${nr}`,
      ]),
    };
  }
  if (lang === 'es') {
    const v = r.chance(0.25)
      ? `${r.int(1, 99)}/${r.int(2020, 2025)}/${r.int(100000, 999999)}`
      : `${r.pick(['POL', '0', '', 'AU'])}${r.int(10000000, 99999999)}`;
    return {
      value: v,
      printed: r.pick([
        `Nº de póliza: ${v}`,
        `Póliza: ${v}`,
        `Póliza nº ${v}`,
        `Nº ${v}`,
        `Número de póliza ${v}`,
        `Póliza número: ${v}`,
        `Nº Póliza ${v}`,
        `Póliza/Suplemento: ${v}`,
      ]),
    };
  }
  // Also the forms with slashes and spaces that OCR splits into digit groups: an insurer, product
  // and year before the number ("AXA/MT/25/0048217"), or groups of four ("MPC 3117 9042").
  const form = r.int(0, 4);
  const v =
    form === 0
      ? `${r.pick(['P', 'AV', 'HD'])}${r.int(10000000, 99999999)}`
      : form === 1
        ? `${r.pick(['AXA', 'AV', 'DL'])}/${r.pick(['MT', 'MC', 'PV'])}/${r.int(23, 26)}/${String(r.int(1, 9999999)).padStart(7, '0')}`
        : form === 2
          ? `${r.pick(['MPC', 'DLM', 'ADM'])} ${r.int(1000, 9999)} ${r.int(1000, 9999)}`
          : `${r.pick(['MTR', 'DL', 'ADM', 'CHU'])}-${r.int(1000000, 9999999)}`;
  return {
    value: v,
    printed: r.pick([
      `Policy number: ${v}`,
      `Policy No. ${v}`,
      `Certificate No: ${v}`,
      `Nr. ${v}`,
      `Policy Nr. ${v}`,
      `Policy ref: ${v}`,
      `No. ${v}`,
    ]),
  };
}

/** The premium split into `n` instalments that add up to it (the last one takes the rounding). */
function instalments(total: number, n: number): number[] {
  const each = Math.floor((total / n) * 100) / 100;
  return [...Array(n - 1).fill(each), round2(total - each * (n - 1))];
}

export function insurance(r: R, lang: Lang): Receipt {
  const provider = r.pick(INSURERS[lang]);
  const coverageType = r.pick(COVER[lang]);
  const start = randomDate(r, 2024, 2025);
  const months = r.pick([6, 12, 12, 12]);
  // Spanish policies often end on the anniversary itself ("vencimiento 01/03/2025" for a start on 01/03/2024).
  const end = lang === 'es' && r.chance(0.3) ? termEnd(start, months, 0) : termEnd(start, months);
  const issued = addDays(start, -r.int(1, 20));
  const ds = dateStyle(r, lang);
  const d = (x: typeof start) => fmtDate(lang, x, ds);
  const price = round2(r.int(30000, 450000) / 100);
  const reminderOff = r.chance(0.15);
  const cur = lang === 'ro' ? r.pick(['LEI', 'RON']) : lang === 'es' ? '€' : '£';
  const money = (n: number) => (cur === '£' ? `£${fmtMoney(r, lang, n)}` : `${fmtMoney(r, lang, n)} ${cur}`);
  const pn = policyNumber(r, lang);
  const year = r.int(2008, 2022);
  const plate =
    lang === 'ro'
      ? `B ${r.int(10, 99)} ABC`
      : lang === 'es'
        ? `${r.int(1000, 9999)} KLM`
        : `AB${r.int(10, 99)} CDE`;
  const nInst = r.pick([1, 2, 4, 12]);
  const parts = instalments(price, nInst);
  const tableHead = r.chance(0.4);
  const T = {
    en: {
      title: r.pick(['CERTIFICATE OF MOTOR INSURANCE', 'MOTOR INSURANCE POLICY SCHEDULE']),
      s1: '1. Policy details',
      s2: '2. Insured vehicle',
      s3: '3. Premium',
      s4: '4. Signatures',
      cover: 'Cover',
      from: 'Effective date',
      to: 'Expiry date',
      issued: 'Date of issue',
      period: (a: string, b: string) => `Period of insurance: from 00:01 on ${a} to 23:59 on ${b}`,
      holder: 'Policyholder: JOHN SMITH',
      vehicle: `Vehicle: Ford Focus 1.6, registration ${plate}`,
      year: `Year of manufacture: ${year}   Engine: 1596 cc`,
      premium: r.pick(['Total annual premium', 'Total premium', 'Annual premium']),
      inst: (i: number, n: number) => (n === 12 ? `Monthly instalment ${i}` : `Instalment ${i}`),
      limit: `Third party property damage limit: £${fmtMoney(r, lang, 20000000, 0, true)}`,
      reminder: 'Renewal reminders: No',
      ipt: 'Insurance Premium Tax (12%) included',
      head: ['Policy number', 'Start date', 'End date'],
      born: 'Main driver date of birth',
      net: 'Net premium',
      tax: 'Insurance Premium Tax',
      payable: 'Total payable',
      instHead: ['Instalment', 'Due date', 'Amount'],
    },
    ro: {
      title: `POLIȚĂ DE ASIGURARE ${coverageType}`,
      s1: '1. Date poliță',
      s2: '2. Vehicul asigurat',
      s3: '3. Primă de asigurare',
      s4: '4. Semnături',
      cover: 'Tip asigurare',
      from: 'Valabilă de la',
      to: 'Până la',
      issued: 'Data emiterii',
      period: (a: string, b: string) =>
        r.pick([`Valabilă de la ${a} până la ${b}`, `Perioada de asigurare: ${a} - ${b}`]),
      holder: 'Asigurat: POPESCU ION',
      vehicle: `Vehicul: Dacia Logan, nr. înmatriculare ${plate}`,
      year: `An fabricație: ${year}   Capacitate: 1461 cmc`,
      premium: r.pick([
        'Primă de asigurare',
        'Prima de asigurare',
        'Prima totală',
        'Primă anuală',
        'Total de plată',
      ]),
      inst: (i: number) => `Rata ${i}`,
      limit: `Limită despăgubire daune materiale: ${fmtMoney(r, lang, 6070000, 0, true)} EUR`,
      reminder: 'Notificări de reînnoire: NU',
      ipt: 'Clasa bonus-malus: B8',
      head: ['Nr. poliță', 'Data început', 'Data sfârșit'],
      born: 'Data nașterii conducătorului auto',
      net: 'Primă netă',
      tax: 'Taxe',
      payable: 'Total de plată',
      instHead: ['Rata', 'Scadența', 'Suma'],
    },
    es: {
      title: r.pick(['CERTIFICADO DE SEGURO DE AUTOMÓVIL', 'CONDICIONES PARTICULARES']),
      s1: '1. Datos de la póliza',
      s2: '2. Vehículo asegurado',
      s3: '3. Prima',
      s4: '4. Firmas',
      cover: 'Modalidad',
      from: 'Efecto',
      to: 'Vencimiento',
      issued: 'Fecha de emisión',
      period: (a: string, b: string) => `Duración: desde las 00:00 h del ${a} hasta las 24:00 h del ${b}`,
      holder: 'Tomador: GARCÍA LÓPEZ, MARÍA',
      vehicle: `Vehículo: Seat León, matrícula ${plate}`,
      year: `Año de matriculación: ${year}   Potencia: 85 kW`,
      premium: r.pick(['Prima total anual', 'Prima total', 'Importe total']),
      inst: (i: number) => `Recibo ${i}`,
      limit: `Daños materiales hasta ${fmtMoney(r, lang, 15000000, 0, true)} €`,
      reminder: 'Aviso de renovación: NO',
      ipt: 'Impuestos y recargos incluidos',
      head: ['Póliza', 'Fecha efecto', 'Vencimiento'],
      born: 'Fecha de nacimiento del conductor',
      net: 'Prima neta',
      tax: 'Impuestos y recargos',
      payable: 'Total a pagar',
      instHead: ['Recibo', 'Vencimiento', 'Importe'],
    },
  }[lang];
  const lines: Line[] = [
    {
      text: lang === 'ro' ? `${provider.toUpperCase()} S.A.` : provider.toUpperCase(),
      align: 'left',
      bold: true,
      scale: 1.5,
    },
    {
      text:
        lang === 'en'
          ? `Customer services 0345 ${r.int(100, 999)} 0000`
          : lang === 'ro'
            ? `CUI ${r.int(1000000, 9999999)}  Tel. 021 ${r.int(100, 999)} ${r.int(1000, 9999)}`
            : `Atención al cliente 91 ${r.int(100, 999)} ${r.int(10, 99)} ${r.int(10, 99)}`,
      align: 'left',
    },
    { text: '' },
    { text: T.title, align: 'center', bold: true, scale: 1.25 },
    { text: '' },
    H(T.s1),
  ];
  // Ways of laying out the policy's details: a table; label and value side by side; a form with the
  // labels on the left and the values at the right edge; a form with each value under its label.
  const detail = tableHead ? 'table' : r.pick(['inline', 'inline', 'form', 'stacked'] as const);
  const labelOf = pn.printed.slice(0, pn.printed.lastIndexOf(pn.value)).replace(/[\s:]+$/, '');
  const simpleNumber = pn.printed.endsWith(pn.value) && !/^Seria/.test(pn.printed) && labelOf.length > 0;
  if (detail === 'table') {
    lines.push({ text: '', cols: T.head, at: [0, 0.45, 0.73], leftAll: true, bold: true });
    lines.push({ text: '', cols: [pn.value, d(start), d(end)], at: [0, 0.45, 0.73], leftAll: true });
  } else if (detail === 'inline' || !simpleNumber) {
    lines.push(two(pn.printed, `${T.issued}: ${d(issued)}`));
    if (r.chance(0.5)) lines.push({ text: T.period(d(start), d(end)) });
    else lines.push(two(`${T.from}: ${d(start)}`, `${T.to}: ${d(end)}`));
  } else if (detail === 'form') {
    lines.push({ text: labelOf, pair: pn.value });
    lines.push({ text: T.issued, pair: d(issued) });
    lines.push({ text: T.from, pair: r.chance(0.5) ? `${d(start)} 00:00` : d(start) });
    lines.push({ text: T.to, pair: r.chance(0.5) ? `${d(end)} 24:00` : d(end) });
  } else {
    lines.push({ text: labelOf, bold: true }, { text: pn.value });
    lines.push(two(T.from, T.to), two(d(start), d(end)));
    lines.push({ text: `${T.issued}: ${d(issued)}` });
  }
  if (lang !== 'ro' || tableHead) lines.push({ text: `${T.cover}: ${coverageType}` });
  if (tableHead) lines.push({ text: `${T.issued}: ${d(issued)}` });
  lines.push({ text: T.holder });
  // Another person's dates: the driver's birth and licence (never the policy's).
  if (r.chance(0.4)) lines.push({ text: `${T.born}: ${d(randomDate(r, 1955, 2000))}` });
  lines.push({ text: '' }, H(T.s2), { text: T.vehicle }, { text: T.year });
  if (r.chance(0.6)) lines.push({ text: T.limit });
  lines.push({ text: '' }, H(T.s3));
  // The premium: alone; after its net part and the tax (or a bonus-malus discount); or named with its year.
  const split = r.pick(['plain', 'plain', 'net', 'year'] as const);
  const instFirst = nInst > 1 && nInst < 12 && r.chance(0.3);
  if (split === 'net') {
    const tax = round2(price * (lang === 'ro' ? 0.12 : r.pick([0.06, 0.08, 0.12])));
    const net = round2(price - tax);
    if (lang === 'ro') {
      lines.push({ text: 'Primă de referință', pair: money(round2(price + tax)) });
      lines.push({ text: 'Reducere bonus-malus', pair: `-${money(tax)}` });
    } else {
      lines.push({ text: T.net, pair: money(net) });
      lines.push({ text: T.tax, pair: money(tax) });
    }
  }
  const premiumLine = {
    text:
      split === 'net'
        ? T.payable
        : split === 'year'
          ? `${T.premium} ${start.y}/${String(start.y + 1).slice(2)}`
          : T.premium,
    pair: money(price),
    bold: true,
  };
  if (!instFirst) lines.push(premiumLine);
  // A UK schedule prints what each month costs beside the annual premium ("Monthly premium £52.85").
  if (lang === 'en' && nInst === 12 && r.chance(0.5))
    lines.push({
      text: r.pick(['Monthly premium', 'Monthly instalment', 'Instalment amount']),
      pair: money(parts[0] ?? 0),
    });
  if (nInst > 1) {
    const due = (i: number) => d(addDays(start, Math.round(((i * months) / nInst) * 30.4)));
    const show = nInst === 12 ? parts.slice(0, 3) : parts;
    if (nInst === 12 || r.chance(0.3))
      lines.push({
        text:
          lang === 'en'
            ? `Payable in ${nInst} instalments of ${money(parts[0] ?? 0)}`
            : lang === 'ro'
              ? `Plata în ${nInst} rate de ${money(parts[0] ?? 0)}`
              : `Pago fraccionado en ${nInst} recibos de ${money(parts[0] ?? 0)}`,
      });
    if (r.chance(0.35)) lines.push({ text: '', cols: T.instHead, at: [0, 0.45, 0.7], bold: true });
    show.forEach((p, i) => {
      lines.push({ text: '', cols: [T.inst(i + 1, nInst), due(i), money(p)], at: [0, 0.45, 0.7] });
    });
  }
  if (instFirst) lines.push(premiumLine);
  lines.push({ text: T.ipt });
  if (reminderOff) lines.push({ text: T.reminder });
  lines.push({ text: '' }, H(T.s4));
  lines.push(
    two(
      lang === 'en' ? 'For the insurer' : lang === 'ro' ? 'Asigurător' : 'La entidad',
      lang === 'en' ? 'Policyholder' : lang === 'ro' ? 'Contractant' : 'El tomador',
    ),
  );
  lines.push({ text: '' });
  lines.push({
    text: `${lang === 'en' ? 'Issued' : lang === 'ro' ? 'Emisă la' : 'Emitida el'} ${d(issued)}, ${lang === 'en' ? 'London' : lang === 'ro' ? 'București' : 'Madrid'}   ${lang === 'es' ? 'Pág.' : lang === 'ro' ? 'Pag.' : 'Page'} 1/1`,
    scale: 0.8,
  });
  return {
    kind: 'insurance',
    lang,
    format: 'a4',
    lines,
    label: {
      provider,
      policyNumber: pn.value,
      coverageType,
      startDate: start.iso,
      endDate: end.iso,
      price,
      reminderEnabled: !reminderOff,
    },
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
const GARAGES: Record<Lang, string[]> = {
  ro: ['AUTO SERVICE DACIA SRL', 'SERVICE AUTO MOTORVIP SRL', 'GARAJUL LUI ION SRL'],
  es: ['TALLERES MARTÍNEZ S.L.', 'AUTOMOCIÓN RUIZ', 'SERVICIO OFICIAL SEAT'],
  en: ['SMITH & SONS GARAGE', 'QUICKFIT AUTOCENTRE', 'MAIN DEALER SERVICE'],
};

/** A garage's bill: an A4 invoice most of the time, a till slip otherwise. */
export function revision(r: R, lang: Lang): Receipt {
  const desc = r.pick(SERVICES[lang]);
  const price = round2(r.int(8000, 250000) / 100);
  const kmv = r.int(10000, 280000);
  const dt = randomDate(r);
  const ds = dateStyle(r, lang);
  const d = (x: typeof dt) => fmtDate(lang, x, ds);
  const miles = lang === 'en' && r.chance(0.5);
  const shownKm = miles ? Math.round(kmv / 1.609344) : kmv;
  // A UK garage may print miles; the record keeps km (converted, as the extractor does).
  const kmLabel = miles ? Math.round(shownKm * 1.609344) : kmv;
  const rate = lang === 'ro' ? 19 : lang === 'es' ? 21 : 20;
  const net = round2(price / (1 + rate / 100));
  const vat = round2(price - net);
  const labour = round2(net * (0.3 + r.next() * 0.3));
  const partsTotal = round2(net - labour);
  const cur = lang === 'ro' ? 'LEI' : lang === 'es' ? '€' : '£';
  const money = (n: number) => fmtMoney(r, lang, n);
  const plate =
    lang === 'ro'
      ? `B ${r.int(10, 999)} XYZ`
      : lang === 'es'
        ? `${r.int(1000, 9999)} KLM`
        : `AB${r.int(10, 99)} CDE`;
  const kmText = `${km(r, lang, shownKm)}${miles ? ' miles' : lang === 'en' || r.chance(0.4) ? ' km' : ''}`;
  const L = {
    en: {
      inv: 'INVOICE',
      no: 'Invoice No.',
      date: 'Date',
      due: 'Due date',
      reg: 'Registration',
      vin: 'VIN',
      km: r.pick(['Mileage', 'Odometer', 'Mileage in']),
      work: r.pick(['Work carried out', 'Work']),
      lab: 'Labour',
      parts: 'Parts',
      net: 'Subtotal (net)',
      vat: `VAT ${rate}%`,
      total: r.pick(['TOTAL', 'TOTAL DUE', 'AMOUNT DUE', 'Invoice total']),
      cust: 'Customer: J. SMITH, 4 Elm Road',
      head: ['Description', 'Qty', 'Unit price', 'Amount'],
      next: 'Next service due at',
      oil: 'Engine oil 5W-30',
      filter: 'Oil filter',
      hours: 'hrs',
    },
    ro: {
      inv: 'FACTURĂ FISCALĂ',
      no: 'Factura nr.',
      date: 'Data',
      due: 'Scadență',
      reg: 'Nr. înmatriculare',
      vin: 'Serie șasiu',
      km: r.pick(['Kilometraj', 'Km bord', 'KM', 'KM']),
      work: r.pick(['Lucrare', 'Lucrări efectuate']),
      lab: 'Manoperă',
      parts: 'Piese',
      net: 'Total fără TVA',
      vat: `TVA ${rate}%`,
      total: r.pick(['TOTAL DE PLATĂ', 'TOTAL', 'Total factură']),
      cust: 'Client: POPESCU ION, Str. Lalelelor 4',
      head: ['Denumire', 'Cant.', 'Preț unitar', 'Valoare'],
      next: 'Următoarea revizie la',
      oil: 'Ulei motor 5W-30',
      filter: 'Filtru ulei',
      hours: 'ore',
    },
    es: {
      inv: 'FACTURA',
      no: 'Factura nº',
      date: 'Fecha',
      due: 'Vencimiento',
      reg: 'Matrícula',
      vin: 'Bastidor',
      km: r.pick(['Kilómetros', 'Km', 'KM', 'Kilometraje']),
      work: r.pick(['Concepto', 'Trabajo realizado']),
      lab: 'Mano de obra',
      parts: 'Recambios',
      net: 'Base imponible',
      vat: `IVA ${rate}%`,
      total: r.pick(['TOTAL', 'TOTAL A PAGAR', 'IMPORTE TOTAL', 'TOTAL FACTURA']),
      cust: 'Cliente: GARCÍA LÓPEZ, MARÍA',
      head: ['Descripción', 'Cant.', 'Precio', 'Importe'],
      next: 'Próxima revisión a los',
      oil: 'Aceite motor 5W-30',
      filter: 'Filtro de aceite',
      hours: 'h',
    },
  }[lang];
  const garage = r.pick(GARAGES[lang]);
  const invNo = r.int(100, 9999);
  if (r.chance(0.35)) {
    // The short till slip.
    const lines: Line[] = [
      { text: garage, align: 'center', bold: true },
      { text: `${L.inv} ${lang === 'es' ? 'Nº' : 'nr.'} ${invNo}`, align: 'center' },
      { text: `${L.date}: ${d(dt)}` },
      { text: `${L.reg}: ${plate}` },
      { text: L.km, pair: kmText },
      { text: '', rule: true },
      { text: `${L.work}: ${desc}` },
      { text: L.lab, pair: money(labour) },
      { text: L.parts, pair: money(partsTotal) },
      { text: L.vat, pair: money(vat) },
      { text: L.total, pair: cur === '£' ? `£${money(price)}` : `${money(price)} ${cur}`, bold: true },
    ];
    return {
      kind: 'revision',
      lang,
      format: 'slip',
      lines,
      label: { date: dt.iso, km: kmLabel, price, description: desc },
    };
  }
  const hours = r.pick([1, 1.5, 2, 2.5, 3]);
  const oilQty = r.pick([4, 4.5, 5]);
  const oilUnit = round2((partsTotal * 0.6) / oilQty);
  const oil = round2(oilUnit * oilQty);
  const filter = round2(partsTotal - oil);
  // Quantities with the country's decimal mark (no random draw: the other numbers stay as they are).
  const qty = (n: number) => (lang === 'en' ? String(n) : String(n).replace('.', ','));
  const at = [0, 0.5, 0.64, 0.82];
  const lines: Line[] = [
    { text: garage, bold: true, scale: 1.4 },
    {
      text:
        lang === 'en'
          ? `Unit 4, Station Road   VAT Reg ${r.int(100, 999)} ${r.int(1000, 9999)} ${r.int(10, 99)}`
          : lang === 'ro'
            ? `Str. Fabricii 12, CUI RO${r.int(1000000, 9999999)}, J40/${r.int(100, 9999)}/2015`
            : `Pol. Ind. Sur, nave 7   CIF B${r.int(10000000, 99999999)}`,
      scale: 0.9,
    },
    { text: '' },
    { text: L.inv, align: 'center', bold: true, scale: 1.3 },
    two(`${L.no} ${invNo}`, `${L.date}: ${d(dt)}`),
    two(L.cust, `${L.due}: ${d(addDays(dt, 30))}`),
    { text: '' },
    H(lang === 'en' ? 'Vehicle' : lang === 'ro' ? 'Vehicul' : 'Vehículo'),
    two(`${L.reg}: ${plate}`, `${L.km}: ${kmText}`),
    {
      text: `${L.vin}: ${r.pick(['UU1', 'VF1', 'WVW', 'VSS'])}${r.int(10000000, 99999999)}${r.int(10000, 99999)}   ${lang === 'en' ? 'First registered' : lang === 'ro' ? 'Prima înmatriculare' : 'Primera matriculación'}: ${r.int(2008, 2022)}`,
    },
    { text: '' },
    H(`${L.work}: ${desc}`),
    { text: '', cols: L.head, at, bold: true },
    {
      text: '',
      cols: [`${L.lab} - ${desc}`, `${qty(hours)} ${L.hours}`, money(round2(labour / hours)), money(labour)],
      at,
    },
    { text: '', cols: [L.oil, qty(oilQty), money(oilUnit), money(oil)], at },
    { text: '', cols: [L.filter, '1', money(filter), money(filter)], at },
    { text: '', rule: true },
    { text: L.net, pair: money(net) },
    { text: L.vat, pair: money(vat) },
    {
      text: L.total,
      pair: cur === '£' ? `£${money(price)}` : `${money(price)} ${cur}`,
      bold: true,
      scale: 1.15,
    },
    { text: '' },
  ];
  if (r.chance(0.6))
    lines.push({
      text: `${L.next} ${km(r, lang, shownKm + (miles ? 6000 : 10000))} ${miles ? 'miles' : 'km'}`,
    });
  lines.push({
    text:
      lang === 'en'
        ? 'Payment within 30 days. Thank you for your custom.'
        : lang === 'ro'
          ? 'Plata în 30 de zile. Vă mulțumim!'
          : 'Pago a 30 días. Gracias por su confianza.',
    scale: 0.85,
  });
  return {
    kind: 'revision',
    lang,
    format: 'a4',
    lines,
    label: { date: dt.iso, km: kmLabel, price, description: desc },
  };
}
