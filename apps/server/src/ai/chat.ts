import type { Language } from '@evdra/domain';
import type { VehicleFacts } from './facts.js';
import { type Fmt, formatter, normalize } from './format.js';
import { matchTopic } from './knowledge.js';
import type { ChatAnswer, ChatContext, ChatRequest } from './provider.js';

/** Questions about the user's own records; everything else is the knowledge base, a greeting or help. */
export type DataIntent =
  | 'insurance_end'
  | 'next_service'
  | 'fuel_spend'
  | 'consumption'
  | 'costs'
  | 'vehicles';

const has = (text: string, words: string[]) =>
  words.some((w) => (w.length <= 3 ? ` ${text} `.includes(` ${w} `) : ` ${text}`.includes(` ${w}`)));

const W = {
  when: [
    'next',
    'when',
    'due',
    'upcoming',
    'urmatoare',
    'urmatorul',
    'cand',
    'scadent',
    'proxim',
    'cuando',
    'toca',
  ],
  service: ['service', 'servis', 'revizi', 'revision', 'mantenimiento', 'inspection', 'itp', 'itv'],
  insurance: ['insurance', 'insured', 'policy', 'asigurar', 'rca', 'polita', 'casco', 'seguro', 'poliza'],
  spend: [
    'spend',
    'spent',
    'cost',
    'paid',
    'pay',
    'cheltui',
    'platit',
    'dat pe',
    'costa',
    'gast',
    'pague',
    'cuesta',
    'coste',
    'costo',
  ],
  fuel: [
    'fuel',
    'petrol',
    'gas',
    'diesel',
    'combustibil',
    'benzin',
    'motorin',
    'carburant',
    'combustible',
    'gasolina',
    'gasoil',
    'gasoleo',
    'repost',
    'alimentar',
    'charging',
    'incarcar',
    'recarga',
  ],
  consumption: [
    'consumption',
    'consume',
    'l/100',
    'mpg',
    'economy',
    'consum',
    'cuanto gasta',
    'litros a los',
  ],
  costsAll: [
    'total',
    'per km',
    'pe km',
    'por km',
    'overall',
    'in total',
    'en total',
    'all costs',
    'costuri',
    'costes',
    'costos',
    'cheltuieli',
    'gastos',
  ],
  vehicles: [
    'my cars',
    'my vehicles',
    'which cars',
    'masinile mele',
    'vehiculele mele',
    'mis coches',
    'mis vehiculos',
    'what cars',
    'which vehicles',
    'cars do i have',
    'ce masini am',
    'que coches',
    'coches tengo',
    'vehiculos tengo',
  ],
  greeting: ['hello', 'hi', 'hey', 'salut', 'buna', 'hola', 'buenas', 'help', 'ajutor', 'ayuda'],
  other: [
    'other',
    'another',
    'second',
    'celalalt',
    'cealalta',
    'celalalta',
    'alta masina',
    'a doua',
    'otro',
    'otra',
    'segundo',
    'segunda',
  ],
  thanks: ['thanks', 'thank you', 'thx', 'multumesc', 'mersi', 'gracias'],
  lastMonth: [
    'last month',
    'previous month',
    'luna trecuta',
    'luna precedenta',
    'mes pasado',
    'mes anterior',
  ],
  thisMonth: ['this month', 'luna aceasta', 'luna asta', 'luna curenta', 'este mes', 'mes actual'],
};

const MONTHS: [number, string[]][] = [
  [1, ['january', 'jan', 'ianuarie', 'ian', 'enero', 'ene']],
  [2, ['february', 'feb', 'februarie', 'febrero']],
  [3, ['march', 'mar', 'martie', 'marzo']],
  [4, ['april', 'apr', 'aprilie', 'abril', 'abr']],
  [5, ['in may', 'may 20', 'luna mai', 'in mai', 'pe mai', 'mai 20', 'mayo']],
  [6, ['june', 'jun', 'iunie', 'junio']],
  [7, ['july', 'jul', 'iulie', 'julio']],
  [8, ['august', 'aug', 'agosto', 'ago']],
  [9, ['september', 'sep', 'sept', 'septembrie', 'septiembre', 'setiembre']],
  [10, ['october', 'oct', 'octombrie', 'octubre']],
  [11, ['november', 'nov', 'noiembrie', 'noviembre']],
  [12, ['december', 'dec', 'decembrie', 'diciembre', 'dic']],
];

/** The month (YYYY-MM) a question names, relative to today: the latest such month not in the future. */
export function monthIn(text: string, today: string): string | undefined {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  const ym = (year: number, month: number) => `${year}-${String(month).padStart(2, '0')}`;
  if (has(text, W.thisMonth)) return ym(y, m);
  if (has(text, W.lastMonth)) return m === 1 ? ym(y - 1, 12) : ym(y, m - 1);
  const year = /\b(20\d\d)\b/.exec(text)?.[1];
  for (const [n, names] of MONTHS) {
    const hit = names.some((name) =>
      name.includes(' ') ? ` ${text} `.includes(` ${name}`) : new RegExp(`\\b${name}\\b`).test(text),
    );
    if (hit) return ym(year ? Number(year) : n <= m ? y : y - 1, n);
  }
  return undefined;
}

/** Which own-data question this is, if any. */
export function dataIntent(text: string): DataIntent | undefined {
  if (has(text, W.insurance)) return 'insurance_end';
  if (has(text, W.service) && has(text, W.when)) return 'next_service';
  if (has(text, W.consumption)) return 'consumption';
  if (has(text, W.spend) && has(text, W.fuel)) return 'fuel_spend';
  if (has(text, W.vehicles)) return 'vehicles';
  if (has(text, W.spend) || (has(text, W.costsAll) && /cost|cheltui|gast/.test(text))) return 'costs';
  return undefined;
}

/** Vehicles the question names by make, model or registration number. */
function namedVehicles(text: string, vehicles: VehicleFacts[]): VehicleFacts[] {
  const plain = text.replace(/[\s-]/g, '');
  return vehicles.filter((v) => {
    const model = normalize(v.vehicle.model);
    const make = normalize(v.vehicle.make);
    const reg = normalize(v.vehicle.registrationNumber).replace(/[\s-]/g, '');
    return (
      (model.length >= 2 && has(text, [model])) ||
      (make.length >= 2 && has(text, [make])) ||
      (reg.length >= 4 && plain.includes(reg))
    );
  });
}

type T = {
  noVehicles: string;
  help: string;
  greeting: string;
  thanks: string;
  vehicles: (list: string) => string;
  service: {
    next: (
      car: string,
      date: string,
      km: string,
      days: number,
      kmLeft: string,
      last: string,
      lastKm: string,
    ) => string;
    overdue: (car: string, date: string, km: string, last: string, lastKm: string) => string;
    none: (car: string) => string;
  };
  fuel: {
    month: (car: string, money: string, month: string, qty: string) => string;
    noneMonth: (car: string, month: string) => string;
    all: (car: string, money: string, fills: number) => string;
    together: (money: string) => string;
  };
  consumption: {
    value: (car: string, avg: string, n: number, latest: string, date: string) => string;
    none: (car: string) => string;
  };
  insurance: {
    current: (car: string, provider: string, date: string, days: number) => string;
    ended: (car: string, provider: string, date: string) => string;
    none: (car: string) => string;
  };
  costs: {
    value: (
      car: string,
      total: string,
      fuel: string,
      other: string,
      perKm: string | null,
      unit: string,
    ) => string;
    none: (car: string) => string;
  };
};

const TEXTS: Record<Language, T> = {
  en: {
    noVehicles: 'You have no vehicles yet. Add one on the Vehicles page and I can answer questions about it.',
    help: 'I can answer questions about your cars (when the next service is due, how much you spent on fuel in a month, real consumption, when the insurance ends, total costs) and general questions about warning lights, noises, vibrations, smells, leaks, brakes, tyres, battery, oil and service intervals, the diesel particulate filter, EV charging, seasonal care and buying a used car.',
    greeting: "Hello! I'm your virtual mechanic.",
    thanks: "You're welcome! Ask me anything else about your cars.",
    vehicles: (l) => `Your vehicles: ${l}.`,
    service: {
      next: (car, d, km, days, kmLeft, last, lastKm) =>
        `**${car}**: next service by ${d} or at ${km}, whichever comes first (${days} days or ${kmLeft} left). Last service: ${last} at ${lastKm}.`,
      overdue: (car, d, km, last, lastKm) =>
        `**${car}**: the service is overdue: it was due by ${d} or at ${km}. Last service: ${last} at ${lastKm}.`,
      none: (car) =>
        `**${car}**: no service recorded yet. Add the last one and I will tell you when the next is due (every 15,000 km or 12 months).`,
    },
    fuel: {
      month: (car, m, month, q) => `**${car}**: ${m} on fuel in ${month} (${q}).`,
      noneMonth: (car, month) => `**${car}**: no fuel recorded in ${month}.`,
      all: (car, m, n) => `**${car}**: ${m} on fuel in total, over ${n} fill-up(s).`,
      together: (m) => `All together: ${m}.`,
    },
    consumption: {
      value: (car, a, n, l, d) =>
        `**${car}**: ${a} on average from full tank to full tank (${n} measurement(s)); the latest was ${l} on ${d}.`,
      none: (car) =>
        `**${car}**: not enough full-tank fill-ups with odometer readings to measure consumption yet.`,
    },
    insurance: {
      current: (car, p, d, days) => `**${car}**: insured with ${p} until ${d} (${days} days left).`,
      ended: (car, p, d) => `**${car}**: the last policy (${p}) ended on ${d}; it is not insured now.`,
      none: (car) => `**${car}**: no insurance policy recorded.`,
    },
    costs: {
      value: (car, total, fuel, other, perKm, unit) =>
        `**${car}**: ${total} in total (fuel ${fuel}, everything else ${other})${perKm ? `, ${perKm} per ${unit}` : ''}.`,
      none: (car) => `**${car}**: no costs recorded yet.`,
    },
  },
  ro: {
    noVehicles:
      'Nu aveți încă niciun vehicul. Adăugați unul pe pagina Vehicule și vă pot răspunde la întrebări despre el.',
    help: 'Pot răspunde la întrebări despre mașinile dumneavoastră (când e următoarea revizie, cât ați cheltuit pe combustibil într-o lună, consumul real, când expiră asigurarea, costurile totale) și la întrebări generale despre martori de bord, zgomote, vibrații, mirosuri, scurgeri, frâne, anvelope, baterie, ulei și intervale de revizie, filtrul de particule, încărcarea mașinilor electrice, îngrijirea de sezon și cumpărarea unei mașini la mâna a doua.',
    greeting: 'Bună! Sunt mecanicul dumneavoastră virtual.',
    thanks: 'Cu plăcere! Întrebați-mă orice altceva despre mașinile dumneavoastră.',
    vehicles: (l) => `Vehiculele dumneavoastră: ${l}.`,
    service: {
      next: (car, d, km, days, kmLeft, last, lastKm) =>
        `**${car}**: următoarea revizie până pe ${d} sau la ${km}, care vine prima (${days} zile sau ${kmLeft} rămase). Ultima revizie: ${last} la ${lastKm}.`,
      overdue: (car, d, km, last, lastKm) =>
        `**${car}**: revizia a depășit termenul: era scadentă pe ${d} sau la ${km}. Ultima revizie: ${last} la ${lastKm}.`,
      none: (car) =>
        `**${car}**: nicio revizie înregistrată încă. Adăugați-o pe ultima și vă spun când este următoarea (la 15.000 km sau 12 luni).`,
    },
    fuel: {
      month: (car, m, month, q) => `**${car}**: ${m} pe combustibil în ${month} (${q}).`,
      noneMonth: (car, month) => `**${car}**: nicio alimentare înregistrată în ${month}.`,
      all: (car, m, n) => `**${car}**: ${m} pe combustibil în total, din ${n} alimentare(ări).`,
      together: (m) => `În total: ${m}.`,
    },
    consumption: {
      value: (car, a, n, l, d) =>
        `**${car}**: ${a} în medie de la plin la plin (${n} măsurătoare(i)); ultimul a fost ${l} pe ${d}.`,
      none: (car) =>
        `**${car}**: nu există încă destule alimentări la plin cu kilometraj pentru a măsura consumul.`,
    },
    insurance: {
      current: (car, p, d, days) => `**${car}**: asigurată la ${p} până pe ${d} (mai sunt ${days} zile).`,
      ended: (car, p, d) => `**${car}**: ultima poliță (${p}) a expirat pe ${d}; acum nu este asigurată.`,
      none: (car) => `**${car}**: nicio poliță de asigurare înregistrată.`,
    },
    costs: {
      value: (car, total, fuel, other, perKm, unit) =>
        `**${car}**: ${total} în total (combustibil ${fuel}, restul ${other})${perKm ? `, ${perKm} pe ${unit}` : ''}.`,
      none: (car) => `**${car}**: niciun cost înregistrat încă.`,
    },
  },
  es: {
    noVehicles:
      'Todavía no tienes vehículos. Añade uno en la página Vehículos y podré responder preguntas sobre él.',
    help: 'Puedo responder preguntas sobre tus coches (cuándo toca el próximo mantenimiento, cuánto gastaste en combustible en un mes, el consumo real, cuándo vence el seguro, los costes totales) y preguntas generales sobre testigos del tablero, ruidos, vibraciones, olores, fugas, frenos, neumáticos, batería, aceite e intervalos de mantenimiento, el filtro de partículas, la carga de eléctricos, cuidados de temporada y la compra de un coche usado.',
    greeting: '¡Hola! Soy tu mecánico virtual.',
    thanks: '¡De nada! Pregúntame lo que quieras sobre tus coches.',
    vehicles: (l) => `Tus vehículos: ${l}.`,
    service: {
      next: (car, d, km, days, kmLeft, last, lastKm) =>
        `**${car}**: próximo mantenimiento antes del ${d} o a los ${km}, lo que llegue antes (quedan ${days} días o ${kmLeft}). Último mantenimiento: ${last} a los ${lastKm}.`,
      overdue: (car, d, km, last, lastKm) =>
        `**${car}**: el mantenimiento está vencido: tocaba antes del ${d} o a los ${km}. Último mantenimiento: ${last} a los ${lastKm}.`,
      none: (car) =>
        `**${car}**: todavía no hay mantenimientos registrados. Añade el último y te diré cuándo toca el siguiente (cada 15.000 km o 12 meses).`,
    },
    fuel: {
      month: (car, m, month, q) => `**${car}**: ${m} en combustible en ${month} (${q}).`,
      noneMonth: (car, month) => `**${car}**: ningún repostaje registrado en ${month}.`,
      all: (car, m, n) => `**${car}**: ${m} en combustible en total, en ${n} repostaje(s).`,
      together: (m) => `En total: ${m}.`,
    },
    consumption: {
      value: (car, a, n, l, d) =>
        `**${car}**: ${a} de media de lleno a lleno (${n} medición(es)); el último fue ${l} el ${d}.`,
      none: (car) =>
        `**${car}**: todavía no hay suficientes repostajes con depósito lleno y kilometraje para medir el consumo.`,
    },
    insurance: {
      current: (car, p, d, days) => `**${car}**: asegurado con ${p} hasta el ${d} (quedan ${days} días).`,
      ended: (car, p, d) => `**${car}**: la última póliza (${p}) venció el ${d}; ahora no está asegurado.`,
      none: (car) => `**${car}**: ninguna póliza de seguro registrada.`,
    },
    costs: {
      value: (car, total, fuel, other, perKm, unit) =>
        `**${car}**: ${total} en total (combustible ${fuel}, el resto ${other})${perKm ? `, ${perKm} por ${unit}` : ''}.`,
      none: (car) => `**${car}**: todavía no hay costes registrados.`,
    },
  },
};

const name = (v: VehicleFacts) => `${v.vehicle.make} ${v.vehicle.model}`;

function answerFor(
  intent: DataIntent,
  vs: VehicleFacts[],
  t: T,
  base: Fmt,
  month: string | undefined,
): string {
  if (intent === 'vehicles')
    return t.vehicles(
      vs.map((v) => `${name(v)} ${v.vehicle.year} (${v.vehicle.registrationNumber})`).join(', '),
    );
  const lines = vs.map((v) => {
    // Each car's amounts are in its owner's currency (a shared car's may differ from the reader's).
    const fmt = formatter(base.language, v);
    switch (intent) {
      case 'next_service': {
        const s = v.service;
        if (!s.next || !s.last) return t.service.none(name(v));
        if (s.next.daysLeft < 0 || s.next.kmLeft <= 0)
          return t.service.overdue(
            name(v),
            fmt.date(s.next.date),
            fmt.km(s.next.km),
            fmt.date(s.last.date),
            fmt.km(s.last.km),
          );
        return t.service.next(
          name(v),
          fmt.date(s.next.date),
          fmt.km(s.next.km),
          s.next.daysLeft,
          fmt.km(s.next.kmLeft),
          fmt.date(s.last.date),
          fmt.km(s.last.km),
        );
      }
      case 'fuel_spend': {
        if (!month) return t.fuel.all(name(v), fmt.money(v.fuel.spent), v.fuel.fills);
        const row = v.costs.months.find((m) => m.month === month);
        if (!row || (row.fuel <= 0 && row.liters <= 0)) return t.fuel.noneMonth(name(v), fmt.month(month));
        return t.fuel.month(
          name(v),
          fmt.money(row.fuel),
          fmt.month(month),
          fmt.quantity(row.liters, v.vehicle.fuelType),
        );
      }
      case 'consumption': {
        const f = v.fuel;
        if (f.avgConsumption === null || !f.latest) return t.consumption.none(name(v));
        return t.consumption.value(
          name(v),
          fmt.consumption(f.avgConsumption, v.vehicle.fuelType),
          f.measured,
          fmt.consumption(f.latest.value, v.vehicle.fuelType),
          fmt.date(f.latest.date),
        );
      }
      case 'insurance_end': {
        const i = v.insurance;
        if (i.current)
          return t.insurance.current(
            name(v),
            i.current.provider,
            fmt.date(i.current.endDate),
            i.current.daysLeft,
          );
        if (i.latest) return t.insurance.ended(name(v), i.latest.provider, fmt.date(i.latest.endDate));
        return t.insurance.none(name(v));
      }
      case 'costs': {
        const c = v.costs;
        if (c.total <= 0) return t.costs.none(name(v));
        return t.costs.value(
          name(v),
          fmt.money(c.total),
          fmt.money(c.fuel),
          fmt.money(c.total - c.fuel),
          c.costPerKm !== null ? fmt.moneyPerDistance(c.costPerKm) : null,
          fmt.distanceSign,
        );
      }
    }
    return '';
  });
  if (intent === 'fuel_spend' && vs.length > 1) {
    // Summed per currency: cars of owners paying in different currencies never add up as one.
    const sums = new Map<string, { fmt: Fmt; sum: number }>();
    for (const v of vs) {
      const fmt = formatter(base.language, v);
      const entry = sums.get(fmt.currency) ?? { fmt, sum: 0 };
      entry.sum += month ? (v.costs.months.find((m) => m.month === month)?.fuel ?? 0) : v.fuel.spent;
      sums.set(fmt.currency, entry);
    }
    const together = [...sums.values()].map(({ fmt, sum }) => fmt.money(Math.round(sum * 100) / 100));
    lines.push(t.fuel.together(together.join(' + ')));
  }
  return lines.join('\n');
}

/**
 * The built-in chat: own-data questions answered from the facts (naming the car when the user has
 * several), mechanic questions from the knowledge base, and follow-ups ("and the other car?",
 * "and in April?") that reuse the previous answer's question.
 */
export function builtinChat(req: ChatRequest): ChatAnswer {
  const t = TEXTS[req.language];
  const fmt = formatter(req.language);
  const text = normalize(req.prompt)
    .replace(/[?!.,;:¿¡"()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const { vehicles, today } = req.facts;
  const prev: ChatContext = req.context ?? {};

  let intent: string | undefined = dataIntent(text);
  const named = namedVehicles(text, vehicles);
  const wantsOther = has(text, W.other);
  let month = monthIn(text, today);
  // "Thanks" after an answer is not a follow-up question.
  if (!intent && has(text, W.thanks)) return { text: t.thanks, intent: 'thanks', context: {} };
  const isFollowUp =
    !intent && prev.intent && (named.length > 0 || wantsOther || month || text.split(' ').length <= 6);

  // "How much does a brake job cost?" is a mechanic question, not the user's own costs.
  if (
    intent === 'costs' &&
    !has(text, ['my', 'mea', 'meu', 'mele', 'mei', 'mi', 'mis']) &&
    matchTopic(req.prompt)
  )
    intent = undefined;
  if (!intent) {
    const topic = matchTopic(req.prompt);
    if (topic && !(isFollowUp && topic.score < 2)) {
      return { text: topic.topic.answer[req.language], intent: `knowledge:${topic.topic.id}`, context: {} };
    }
  }
  if (!intent && isFollowUp && prev.intent) {
    intent = prev.intent;
    if (!month && intent === 'fuel_spend') month = prev.month;
  }
  if (!intent) {
    if (has(text, W.greeting)) return { text: `${t.greeting} ${t.help}`, intent: 'greeting', context: {} };
    return { text: t.help, intent: 'help', context: {} };
  }
  const dataI = intent as DataIntent;
  if (vehicles.length === 0) return { text: t.noVehicles, intent: dataI, context: { intent: dataI } };

  let chosen: VehicleFacts[];
  if (named.length > 0) chosen = named;
  else if (wantsOther && prev.vehicleIds?.length) {
    chosen = vehicles.filter((v) => !prev.vehicleIds?.includes(v.vehicle.id));
    if (chosen.length === 0) chosen = vehicles;
  } else if (isFollowUp && prev.vehicleIds?.length) {
    chosen = vehicles.filter((v) => prev.vehicleIds?.includes(v.vehicle.id));
  } else chosen = vehicles;
  if (chosen.length === 0) chosen = vehicles;

  return {
    text: answerFor(dataI, chosen, t, fmt, month),
    intent: dataI,
    context: { intent: dataI, vehicleIds: chosen.map((v) => v.vehicle.id), ...(month ? { month } : {}) },
  };
}
