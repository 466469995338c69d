import type { FuelType, Language } from '@evdra/domain';
import type { VehicleFacts } from './facts.js';
import { type Fmt, formatter } from './format.js';

type Cat = 'fuel' | 'expenses' | 'insurance' | 'revisions';
/** Months with costs needed in the 12 before the last 3 for a trend to mean anything. */
const MIN_MONTHS_FOR_TREND = 3;
const pctChange = (now: number, before: number) => ((now - before) / before) * 100;

type PerfTexts = {
  none: (car: string) => string;
  total: (car: string, total: string, parts: Record<Cat, string>) => string;
  perKm: (c: string, km: string, unit: string) => string;
  noKm: () => string;
  biggest: (cat: string, amount: string, pct: string) => string;
  month: (month: string, amount: string) => string;
  trend: (last: string, prev: string, change: string, up: boolean) => string;
  noTrend: () => string;
  unusual: (type: string, amount: string, date: string, pct: string) => string;
  cats: Record<Cat, string>;
  tip: Record<Cat | 'serviceDue', string>;
};

const PERF: Record<Language, PerfTexts> = {
  en: {
    none: (car) =>
      `There are no costs recorded for the ${car} yet. Add fuel fill-ups, expenses, insurance policies or services and this summary will show where the money goes.`,
    total: (car, total, p) =>
      `The ${car} has cost ${total} in total: fuel ${p.fuel}, expenses ${p.expenses}, insurance ${p.insurance}, services ${p.revisions}.`,
    perKm: (c, km, unit) => `That is ${c} per ${unit} over ${km} on record.`,
    noKm: () => 'Add odometer readings to fill-ups or services to get the cost per km.',
    biggest: (cat, a, pct) => `The biggest category is ${cat} (${a}, ${pct} of the total).`,
    month: (m, a) => `The most expensive month was ${m} (${a}).`,
    trend: (l, p, c, up) =>
      `In the last 3 months it cost ${l} a month on average, against ${p} a month in the 12 months before (${c} ${up ? 'more' : 'less'}).`,
    noTrend: () => 'There is not enough history yet to compare the last 3 months with the 12 before.',
    unusual: (type, a, d, pct) => `Unusual: a single ${type} expense of ${a} on ${d} is ${pct} of all costs.`,
    cats: { fuel: 'fuel', expenses: 'expenses', insurance: 'insurance', revisions: 'services' },
    tip: {
      fuel: 'Tip: fuel is where saving is easiest: check tyre pressures monthly, drive smoothly and compare station prices.',
      expenses: 'Tip: ask for two quotes before larger repairs and keep receipts to spot recurring costs.',
      insurance: 'Tip: compare insurance offers a few weeks before the policy ends.',
      revisions: 'Tip: an independent garage with OEM-quality parts often costs less for routine services.',
      serviceDue: 'Tip: a service is due; keeping to the interval avoids bigger repairs later.',
    },
  },
  ro: {
    none: (car) =>
      `Nu există încă niciun cost înregistrat pentru ${car}. Adăugați alimentări, cheltuieli, polițe de asigurare sau revizii și acest rezumat va arăta unde se duc banii.`,
    total: (car, total, p) =>
      `${car} a costat în total ${total}: combustibil ${p.fuel}, cheltuieli ${p.expenses}, asigurări ${p.insurance}, revizii ${p.revisions}.`,
    perKm: (c, km, unit) => `Adică ${c} pe ${unit} pentru ${km} înregistrați.`,
    noKm: () => 'Adăugați kilometrajul la alimentări sau revizii pentru a afla costul pe km.',
    biggest: (cat, a, pct) => `Cea mai mare categorie este ${cat} (${a}, ${pct} din total).`,
    month: (m, a) => `Cea mai scumpă lună a fost ${m} (${a}).`,
    trend: (l, p, c, up) =>
      `În ultimele 3 luni a costat în medie ${l} pe lună, față de ${p} pe lună în cele 12 luni dinainte (cu ${c} ${up ? 'mai mult' : 'mai puțin'}).`,
    noTrend: () => 'Nu există încă destul istoric pentru a compara ultimele 3 luni cu cele 12 dinainte.',
    unusual: (type, a, d, pct) =>
      `Neobișnuit: o singură cheltuială ${type} de ${a} pe ${d} reprezintă ${pct} din toate costurile.`,
    cats: {
      fuel: 'combustibilul',
      expenses: 'cheltuielile',
      insurance: 'asigurarea',
      revisions: 'reviziile',
    },
    tip: {
      fuel: 'Sfat: la combustibil se economisește cel mai ușor: verificați lunar presiunea anvelopelor, conduceți lin și comparați prețurile benzinăriilor.',
      expenses:
        'Sfat: cereți două oferte înainte de reparațiile mari și păstrați bonurile ca să observați costurile care se repetă.',
      insurance: 'Sfat: comparați ofertele de asigurare cu câteva săptămâni înainte să expire polița.',
      revisions:
        'Sfat: un service independent cu piese de calitate OEM costă adesea mai puțin pentru reviziile de rutină.',
      serviceDue:
        'Sfat: revizia este scadentă; respectarea intervalului evită reparații mai mari mai târziu.',
    },
  },
  es: {
    none: (car) =>
      `Todavía no hay costes registrados para el ${car}. Añade repostajes, gastos, pólizas de seguro o mantenimientos y este resumen mostrará a dónde va el dinero.`,
    total: (car, total, p) =>
      `El ${car} ha costado ${total} en total: combustible ${p.fuel}, gastos ${p.expenses}, seguro ${p.insurance}, mantenimientos ${p.revisions}.`,
    perKm: (c, km, unit) => `Eso son ${c} por ${unit} en ${km} registrados.`,
    noKm: () =>
      'Añade lecturas del cuentakilómetros a repostajes o mantenimientos para obtener el coste por km.',
    biggest: (cat, a, pct) => `La categoría más grande es ${cat} (${a}, ${pct} del total).`,
    month: (m, a) => `El mes más caro fue ${m} (${a}).`,
    trend: (l, p, c, up) =>
      `En los últimos 3 meses costó ${l} al mes de media, frente a ${p} al mes en los 12 meses anteriores (un ${c} ${up ? 'más' : 'menos'}).`,
    noTrend: () =>
      'Todavía no hay suficiente historial para comparar los últimos 3 meses con los 12 anteriores.',
    unusual: (type, a, d, pct) =>
      `Inusual: un solo gasto de ${type} de ${a} el ${d} supone el ${pct} de todos los costes.`,
    cats: {
      fuel: 'el combustible',
      expenses: 'los gastos',
      insurance: 'el seguro',
      revisions: 'los mantenimientos',
    },
    tip: {
      fuel: 'Consejo: en combustible es donde más fácil se ahorra: revisa la presión de los neumáticos cada mes, conduce con suavidad y compara precios de gasolineras.',
      expenses:
        'Consejo: pide dos presupuestos antes de reparaciones grandes y guarda los tiques para detectar gastos que se repiten.',
      insurance: 'Consejo: compara ofertas de seguro unas semanas antes de que venza la póliza.',
      revisions:
        'Consejo: un taller independiente con recambios de calidad original suele costar menos en los mantenimientos rutinarios.',
      serviceDue: 'Consejo: toca mantenimiento; respetar el intervalo evita reparaciones mayores después.',
    },
  },
};

const carName = (f: VehicleFacts) => `${f.vehicle.make} ${f.vehicle.model}`;

/** Performance summary: totals, cost per km, biggest category and month, trend, anything unusual, one tip. */
export function performanceText(f: VehicleFacts, lang: Language): string {
  const t = PERF[lang];
  const fmt = formatter(lang, f);
  const c = f.costs;
  if (c.total <= 0) return t.none(carName(f));
  const lines: string[] = [];
  lines.push(
    t.total(carName(f), fmt.money(c.total), {
      fuel: fmt.money(c.fuel),
      expenses: fmt.money(c.expenses),
      insurance: fmt.money(c.insurance),
      revisions: fmt.money(c.revisions),
    }),
  );
  lines.push(
    c.costPerKm !== null
      ? t.perKm(fmt.moneyPerDistance(c.costPerKm), fmt.km(c.km), fmt.distanceSign)
      : t.noKm(),
  );
  if (c.biggestCategory) {
    const share = (c.biggestCategory.amount / c.total) * 100;
    lines.push(
      t.biggest(t.cats[c.biggestCategory.category], fmt.money(c.biggestCategory.amount), fmt.pct(share)),
    );
  }
  if (c.biggestMonth) lines.push(t.month(fmt.month(c.biggestMonth.month), fmt.money(c.biggestMonth.amount)));
  if (c.prev12Months >= MIN_MONTHS_FOR_TREND && c.prev12MonthlyAvg > 0) {
    const change = pctChange(c.last3MonthlyAvg, c.prev12MonthlyAvg);
    lines.push(
      t.trend(
        fmt.money(c.last3MonthlyAvg),
        fmt.money(c.prev12MonthlyAvg),
        fmt.pct(Math.abs(change)),
        change >= 0,
      ),
    );
  } else lines.push(t.noTrend());
  const big = c.largestExpense;
  if (big && f.records.total >= 3 && big.amount >= 0.3 * c.total) {
    lines.push(
      t.unusual(big.type, fmt.money(big.amount), fmt.date(big.date), fmt.pct((big.amount / c.total) * 100)),
    );
  }
  const due = f.service.next && (f.service.next.daysLeft <= 30 || f.service.next.kmLeft <= 1000);
  lines.push(due ? t.tip.serviceDue : t.tip[c.biggestCategory?.category ?? 'fuel']);
  return lines.join('\n');
}

type FuelTexts = {
  none: (car: string) => string;
  unmeasured: (n: number, qty: string, spent: string) => string;
  totals: (n: number, qty: string, spent: string) => string;
  avg: (avg: string, n: number, typical: string) => string;
  latest: (v: string, date: string, pct: string, above: boolean) => string;
  bestWorst: (best: string, bestDate: string, worst: string, worstDate: string) => string;
  price: (recent: string, earlier: string, pct: string, up: boolean, unit: string) => string;
  jump: (pct: string, electric: boolean) => string;
  steady: () => string;
  /** A two-fuel vehicle (issue 51): each fuel's money over every km driven, the costlier first. */
  byFuel: (first: string, firstPerKm: string, second: string, secondPerKm: string) => string;
  fuelNames: Record<FuelType, string>;
  /** One fuel of a two-fuel vehicle: its own full-to-full average (null: not measured yet). */
  fuelAvg: (name: string, avg: string | null, n: number) => string;
};

const FUEL: Record<Language, FuelTexts> = {
  en: {
    none: (car) =>
      `No fuel entries for the ${car} yet. Add your fill-ups with the odometer reading and "full tank" ticked, and this summary will show the real consumption and price trends.`,
    unmeasured: (n, q, s) =>
      `${n} fill-up(s) so far: ${q} for ${s}. To measure consumption, record at least two full-tank fill-ups with odometer readings.`,
    totals: (n, q, s) => `${n} fill-ups: ${q} for ${s}.`,
    avg: (a, n, typ) =>
      `Average consumption from full tank to full tank: ${a} (${n} measurement(s)); about ${typ} is typical for this car.`,
    latest: (v, d, pct, above) =>
      `The latest is ${v} on ${d}, ${pct} ${above ? 'above' : 'below'} the average.`,
    bestWorst: (b, bd, w, wd) => `Best fill: ${b} (${bd}); worst: ${w} (${wd}).`,
    price: (r, e, pct, up, unit) =>
      `Price per ${unit}: ${r} on the last 3 fill-ups against ${e} before (${pct} ${up ? 'higher' : 'lower'}).`,
    jump: (pct, ev) =>
      ev
        ? `The latest consumption is ${pct} above the average: check tyre pressures, heating or air-conditioning use and motorway speeds.`
        : `The latest consumption is ${pct} above the average, which can hint at a fault: check tyre pressures, the air filter, spark plugs or injectors, and your driving (short trips, cold starts, roof box).`,
    steady: () => 'Consumption is steady; nothing points to a fault.',
    byFuel: (a, x, b, y) =>
      `${a[0]?.toUpperCase()}${a.slice(1)} costs you ${x} against ${y} on ${b} (each fuel’s cost over every km driven: the odometer does not say which fuel drove them).`,
    fuelNames: { PETROL: 'petrol', DIESEL: 'diesel', GPL: 'LPG', CNG: 'CNG', ELECTRIC: 'electricity' },
    fuelAvg: (name, avg, n) =>
      `${name[0]?.toUpperCase()}${name.slice(1)}: ${n} fill-up(s), ${avg === null ? 'consumption not measured yet' : `${avg} on average from full to full`}.`,
  },
  ro: {
    none: (car) =>
      `Nu există încă alimentări pentru ${car}. Adăugați alimentările cu kilometrajul și „plin” bifat, iar acest rezumat va arăta consumul real și evoluția prețurilor.`,
    unmeasured: (n, q, s) =>
      `${n} alimentare(ări) până acum: ${q} pentru ${s}. Pentru a măsura consumul, înregistrați cel puțin două alimentări la plin cu kilometrajul.`,
    totals: (n, q, s) => `${n} alimentări: ${q} pentru ${s}.`,
    avg: (a, n, typ) =>
      `Consum mediu de la plin la plin: ${a} (${n} măsurătoare(i)); circa ${typ} este obișnuit pentru această mașină.`,
    latest: (v, d, pct, above) => `Ultimul este ${v} pe ${d}, cu ${pct} ${above ? 'peste' : 'sub'} medie.`,
    bestWorst: (b, bd, w, wd) => `Cea mai bună alimentare: ${b} (${bd}); cea mai slabă: ${w} (${wd}).`,
    price: (r, e, pct, up, unit) =>
      `Preț pe ${unit}: ${r} la ultimele 3 alimentări față de ${e} înainte (cu ${pct} ${up ? 'mai mare' : 'mai mic'}).`,
    jump: (pct, ev) =>
      ev
        ? `Ultimul consum este cu ${pct} peste medie: verificați presiunea anvelopelor, folosirea încălzirii sau a aerului condiționat și vitezele pe autostradă.`
        : `Ultimul consum este cu ${pct} peste medie, ceea ce poate indica o defecțiune: verificați presiunea anvelopelor, filtrul de aer, bujiile sau injectoarele și stilul de condus (drumuri scurte, porniri la rece, cutie de plafon).`,
    steady: () => 'Consumul este constant; nimic nu indică o defecțiune.',
    byFuel: (a, x, b, y) =>
      `Pe ${a} cheltuiești ${x}, față de ${y} pe ${b} (costul fiecărui combustibil raportat la toți kilometrii parcurși: kilometrajul nu arată pe ce combustibil s-au parcurs).`,
    fuelNames: { PETROL: 'benzină', DIESEL: 'motorină', GPL: 'GPL', CNG: 'GNC', ELECTRIC: 'electricitate' },
    fuelAvg: (name, avg, n) =>
      `${name[0]?.toUpperCase()}${name.slice(1)}: ${n} alimentare(i), ${avg === null ? 'consum încă nemăsurat' : `în medie ${avg} de la plin la plin`}.`,
  },
  es: {
    none: (car) =>
      `Todavía no hay repostajes del ${car}. Añade tus repostajes con la lectura del cuentakilómetros y "depósito lleno" marcado, y este resumen mostrará el consumo real y la evolución de precios.`,
    unmeasured: (n, q, s) =>
      `${n} repostaje(s) por ahora: ${q} por ${s}. Para medir el consumo, registra al menos dos repostajes con depósito lleno y lectura del cuentakilómetros.`,
    totals: (n, q, s) => `${n} repostajes: ${q} por ${s}.`,
    avg: (a, n, typ) =>
      `Consumo medio de lleno a lleno: ${a} (${n} medición(es)); unos ${typ} es lo habitual para este coche.`,
    latest: (v, d, pct, above) =>
      `El último es ${v} el ${d}, un ${pct} ${above ? 'por encima' : 'por debajo'} de la media.`,
    bestWorst: (b, bd, w, wd) => `Mejor repostaje: ${b} (${bd}); peor: ${w} (${wd}).`,
    price: (r, e, pct, up, unit) =>
      `Precio por ${unit}: ${r} en los 3 últimos repostajes frente a ${e} antes (un ${pct} ${up ? 'más caro' : 'más barato'}).`,
    jump: (pct, ev) =>
      ev
        ? `El último consumo está un ${pct} por encima de la media: revisa la presión de los neumáticos, el uso de calefacción o aire acondicionado y la velocidad en autopista.`
        : `El último consumo está un ${pct} por encima de la media, lo que puede indicar una avería: revisa la presión de los neumáticos, el filtro de aire, las bujías o inyectores y tu forma de conducir (trayectos cortos, arranques en frío, cofre de techo).`,
    steady: () => 'El consumo es estable; nada apunta a una avería.',
    byFuel: (a, x, b, y) =>
      `Con ${a} gastas ${x} frente a ${y} con ${b} (el coste de cada combustible sobre todos los km recorridos: el cuentakilómetros no dice con qué combustible se hicieron).`,
    fuelNames: { PETROL: 'gasolina', DIESEL: 'diésel', GPL: 'GLP', CNG: 'GNC', ELECTRIC: 'electricidad' },
    fuelAvg: (name, avg, n) =>
      `${name[0]?.toUpperCase()}${name.slice(1)}: ${n} repostaje(s), ${avg === null ? 'consumo aún sin medir' : `${avg} de media de lleno a lleno`}.`,
  },
};

/** Share above the average that counts as a consumption jump. */
export const CONSUMPTION_JUMP = 0.15;

/** Fuel summary: average consumption (full tank to full tank), latest, best and worst, price trend, a jump. */
export function fuelText(f: VehicleFacts, lang: Language): string {
  const t = FUEL[lang];
  const fmt: Fmt = formatter(lang, f);
  const fu = f.fuel;
  const q = (n: number) => fmt.quantity(n, f.vehicle.fuelType);
  const c = (n: number) => fmt.consumption(n, f.vehicle.fuelType);
  if (fu.fills === 0) return t.none(carName(f));
  if (fu.byFuel && fu.byFuel.length > 1) return twoFuelsText(f, t, fmt, fu.byFuel);
  if (fu.avgConsumption === null) return t.unmeasured(fu.fills, q(fu.quantity), fmt.money(fu.spent));
  const lines = [t.totals(fu.fills, q(fu.quantity), fmt.money(fu.spent))];
  lines.push(t.avg(c(fu.avgConsumption), fu.measured, c(fu.typicalConsumption)));
  let jump = false;
  if (fu.latest) {
    const change = pctChange(fu.latest.value, fu.avgConsumption);
    lines.push(
      t.latest(c(fu.latest.value), fmt.date(fu.latest.date), fmt.pct(Math.abs(change)), change >= 0),
    );
    jump = fu.measured >= 3 && fu.latest.value > fu.avgConsumption * (1 + CONSUMPTION_JUMP);
    if (jump) lines.push(t.jump(fmt.pct(change), f.vehicle.fuelType === 'ELECTRIC'));
  }
  if (fu.best && fu.worst && fu.measured >= 2)
    lines.push(
      t.bestWorst(c(fu.best.value), fmt.date(fu.best.date), c(fu.worst.value), fmt.date(fu.worst.date)),
    );
  if (fu.recentPricePerUnit !== null && fu.earlierPricePerUnit !== null && fu.earlierPricePerUnit > 0) {
    const change = pctChange(fu.recentPricePerUnit, fu.earlierPricePerUnit);
    lines.push(
      t.price(
        fmt.pricePerQuantity(fu.recentPricePerUnit, f.vehicle.fuelType),
        fmt.pricePerQuantity(fu.earlierPricePerUnit, f.vehicle.fuelType),
        fmt.pct(Math.abs(change)),
        change >= 0,
        f.vehicle.fuelType === 'ELECTRIC'
          ? 'kWh'
          : fmt.units.volumeUnit !== 'L'
            ? { en: 'gallon', ro: 'galon', es: 'galón' }[lang]
            : lang === 'en'
              ? 'litre'
              : lang === 'ro'
                ? 'litru'
                : 'litro',
      ),
    );
  }
  if (!jump && fu.measured >= 3) lines.push(t.steady());
  return lines.join('\n');
}

/**
 * A two-fuel vehicle's fuel summary (issue 51): each fuel's own full-to-full average (the chains are
 * kept apart; one average of both would mean nothing), then what each costs over every km driven.
 */
function twoFuelsText(
  f: VehicleFacts,
  t: FuelTexts,
  fmt: Fmt,
  byFuel: NonNullable<VehicleFacts['fuel']['byFuel']>,
): string {
  const fu = f.fuel;
  const lines = [
    t.totals(
      fu.fills,
      byFuel.map((x) => fmt.quantity(x.quantity, x.fuelType)).join(' + '),
      fmt.money(fu.spent),
    ),
  ];
  for (const x of byFuel)
    lines.push(
      t.fuelAvg(
        t.fuelNames[x.fuelType],
        x.avgConsumption === null ? null : fmt.consumption(x.avgConsumption, x.fuelType),
        x.fills,
      ),
    );
  const [first, second] = [...byFuel].sort((a, b) => b.spent - a.spent);
  if (first?.costPerKm != null && second?.costPerKm != null) {
    const perKm = (n: number) => `${fmt.moneyPerDistance(n)}/${fmt.distanceSign}`;
    lines.push(
      t.byFuel(
        t.fuelNames[first.fuelType],
        perKm(first.costPerKm),
        t.fuelNames[second.fuelType],
        perKm(second.costPerKm),
      ),
    );
  }
  return lines.join('\n');
}
