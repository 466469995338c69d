// `npm run eval:ai`: a fixed set of mechanic and own-data questions in en, ro and es, asked through
// POST /api/chat of the real app (in-memory PGlite, built-in provider). Each question has the
// expected knowledge-base topic or the expected facts (computed here from the records this script
// creates). Prints the share answered correctly (target ≥ 90%) and the latency: end to end
// (route, SQL facts, provider, history write) and of the built-in provider alone (target p95 ≤ 50 ms).
// Figures only; it never fails on them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Language } from '@evdra/domain';
import { BuiltinProvider } from '../src/ai/builtin.js';
import { FactsRepo } from '../src/ai/facts.repo.js';
import { TOPICS } from '../src/ai/knowledge.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openPglite } from '../src/db/client.js';
import { FxRepo } from '../src/modules/fx/fx.repo.js';
import { FxService } from '../src/modules/fx/fx.service.js';

type Check = { topic: string } | { has: string[]; not?: string[] };
type Q = {
  q: string;
  expect: Check /** Asked right after the previous question (a follow-up). */;
  follow?: boolean;
};

const DAY = 86_400_000;
const day = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
const LOCALE: Record<Language, string> = { en: 'en-US', ro: 'ro-RO', es: 'es-ES' };
const money = (l: Language, n: number) =>
  new Intl.NumberFormat(LOCALE[l], {
    style: 'currency',
    currency: 'EUR',
    currencyDisplay: 'narrowSymbol',
  }).format(n);
const dec2 = (l: Language, n: number) =>
  new Intl.NumberFormat(LOCALE[l], { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
const km = (l: Language, n: number) => `${new Intl.NumberFormat(LOCALE[l]).format(n)} km`;
const longDate = (l: Language, iso: string) =>
  new Intl.DateTimeFormat(LOCALE[l], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${iso}T00:00:00Z`));
const monthName = (l: Language, ym: string) =>
  new Intl.DateTimeFormat(LOCALE[l], { month: 'long', timeZone: 'UTC' }).format(
    new Date(`${ym}-01T00:00:00Z`),
  );

// The fleet every eval user owns.
const golfFills = [
  { date: day(-150), odometer: 20_000, liters: 40, fuelPrice: 62 },
  { date: day(-110), odometer: 20_600, liters: 42, fuelPrice: 65.1 },
  { date: day(-75), odometer: 21_200, liters: 39, fuelPrice: 60.45 },
  { date: day(-35), odometer: 21_800, liters: 45, fuelPrice: 72 },
];
const loganFill = { date: day(-65), odometer: 98_000, liters: 48, fuelPrice: 81.6 };
const lastService = { date: day(-50), km: 21_500 };
const golfInsuranceEnd = day(200);
const loganInsuranceEnd = day(21);

function facts(l: Language) {
  const next = new Date(`${lastService.date}T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 12);
  const cons = [42, 39, 45].map((l2) => Math.round((l2 / 600) * 100 * 100) / 100);
  const avg = Math.round((cons.reduce((s, c) => s + c, 0) / cons.length) * 100) / 100;
  const golfFuel = golfFills.reduce((s, f) => s + f.fuelPrice, 0);
  const golfTotal = golfFuel + 420 + 180 + 390; // fuel + services + insurance + expenses
  const month = loganFill.date.slice(0, 7);
  return {
    nextDate: longDate(l, next.toISOString().slice(0, 10)),
    nextKm: km(l, lastService.km + 15_000),
    golfEnd: longDate(l, golfInsuranceEnd),
    loganEnd: longDate(l, loganInsuranceEnd),
    avg: dec2(l, avg),
    loganMonth: monthName(l, month),
    loganSpend: money(l, loganFill.fuelPrice),
    golfFuel: money(l, golfFuel),
    golfTotal: money(l, golfTotal),
  };
}

const topic = (id: string): Check => ({ topic: id });

function questions(l: Language): Q[] {
  const f = facts(l);
  const own: Record<Language, Q[]> = {
    en: [
      {
        q: 'When is my next service?',
        expect: { has: ['Volkswagen Golf', f.nextDate, f.nextKm, 'Dacia Logan'] },
      },
      { q: 'When does my insurance end?', expect: { has: ['Allianz', f.golfEnd, 'Groupama', f.loganEnd] } },
      {
        q: `How much did I spend on fuel in ${f.loganMonth}?`,
        expect: { has: ['Dacia Logan', f.loganSpend] },
      },
      { q: "What is my Golf's consumption?", expect: { has: ['Volkswagen Golf', f.avg], not: ['Logan'] } },
      { q: 'And the other car?', follow: true, expect: { has: ['Dacia Logan'], not: ['Golf'] } },
      { q: 'How much has my Golf cost me in total?', expect: { has: [f.golfTotal], not: ['Logan'] } },
      { q: 'Which cars do I have?', expect: { has: ['GOLF-1', 'LOGAN-1'] } },
      { q: 'How much have I spent on petrol for the Golf?', expect: { has: [f.golfFuel] } },
    ],
    ro: [
      { q: 'Când este următoarea revizie?', expect: { has: ['Volkswagen Golf', f.nextDate, f.nextKm] } },
      { q: 'Când expiră asigurarea RCA?', expect: { has: ['Allianz', f.golfEnd, 'Groupama', f.loganEnd] } },
      {
        q: `Cât am cheltuit pe combustibil în ${f.loganMonth}?`,
        expect: { has: ['Dacia Logan', f.loganSpend] },
      },
      { q: 'Care este consumul mașinii Golf?', expect: { has: ['Volkswagen Golf', f.avg], not: ['Logan'] } },
      { q: 'Și cealaltă mașină?', follow: true, expect: { has: ['Dacia Logan'], not: ['Golf'] } },
      { q: 'Cât m-a costat Golful în total?', expect: { has: [f.golfTotal], not: ['Logan'] } },
      { q: 'Care sunt mașinile mele?', expect: { has: ['GOLF-1', 'LOGAN-1'] } },
      { q: 'Cât am dat pe benzină la Golf?', expect: { has: [f.golfFuel] } },
    ],
    es: [
      {
        q: '¿Cuándo toca el próximo mantenimiento?',
        expect: { has: ['Volkswagen Golf', f.nextDate, f.nextKm] },
      },
      { q: '¿Cuándo vence mi seguro?', expect: { has: ['Allianz', f.golfEnd, 'Groupama', f.loganEnd] } },
      {
        q: `¿Cuánto gasté en combustible en ${f.loganMonth}?`,
        expect: { has: ['Dacia Logan', f.loganSpend] },
      },
      { q: '¿Cuál es el consumo de mi Golf?', expect: { has: ['Volkswagen Golf', f.avg], not: ['Logan'] } },
      { q: '¿Y el otro coche?', follow: true, expect: { has: ['Dacia Logan'], not: ['Golf'] } },
      { q: '¿Cuánto me ha costado el Golf en total?', expect: { has: [f.golfTotal], not: ['Logan'] } },
      { q: '¿Qué coches tengo?', expect: { has: ['GOLF-1', 'LOGAN-1'] } },
      { q: '¿Cuánto he gastado en gasolina en el Golf?', expect: { has: [f.golfFuel] } },
    ],
  };
  const kb: Record<Language, Q[]> = {
    en: [
      { q: 'A red light came on on my dashboard, what does it mean?', expect: topic('warning-lights') },
      { q: 'The check engine light is flashing', expect: topic('warning-lights') },
      { q: 'I hear a knocking sound from the engine', expect: topic('noises') },
      { q: 'My steering wheel shakes at 100 km/h', expect: topic('vibrations') },
      { q: 'I smell petrol inside the car', expect: topic('smells') },
      { q: 'There is a green puddle under my car', expect: topic('leaks') },
      { q: 'My brake pedal feels spongy', expect: topic('brakes') },
      { q: 'What tyre pressure should I use?', expect: topic('tyres') },
      { q: "My car won't start in the morning, it just clicks", expect: topic('battery') },
      { q: 'How often should I change the oil?', expect: topic('oil-service') },
      { q: 'The DPF light is on, what should I do?', expect: topic('dpf') },
      { q: 'How can I get more range from my electric car?', expect: topic('ev') },
      { q: 'How do I prepare my car for winter?', expect: topic('seasonal') },
      { q: 'What should I check before buying a used car?', expect: topic('used-car') },
    ],
    ro: [
      { q: 'Mi s-a aprins un martor roșu în bord, ce înseamnă?', expect: topic('warning-lights') },
      { q: 'Aud un zgomot de bătaie din motor', expect: topic('noises') },
      { q: 'Volanul vibrează la 100 km/h', expect: topic('vibrations') },
      { q: 'Simt miros de ars după ce conduc', expect: topic('smells') },
      { q: 'Am o pată verde sub mașină, pierde ceva', expect: topic('leaks') },
      { q: 'Pedala de frână e moale', expect: topic('brakes') },
      { q: 'Ce presiune trebuie să aibă anvelopele?', expect: topic('tyres') },
      { q: 'Mașina nu pornește dimineața, face doar clic', expect: topic('battery') },
      { q: 'Cât de des schimb uleiul?', expect: topic('oil-service') },
      { q: 'S-a aprins martorul filtrului de particule', expect: topic('dpf') },
      { q: 'Cum încarc corect mașina electrică?', expect: topic('ev') },
      { q: 'Cum pregătesc mașina pentru iarnă?', expect: topic('seasonal') },
      { q: 'Ce verific înainte să cumpăr o mașină second-hand?', expect: topic('used-car') },
      { q: 'Mașina se supraîncălzește vara', expect: topic('seasonal') },
    ],
    es: [
      { q: 'Se encendió un testigo rojo en el tablero, ¿qué significa?', expect: topic('warning-lights') },
      { q: 'Oigo un golpeteo en el motor', expect: topic('noises') },
      { q: 'El volante vibra a 100 km/h', expect: topic('vibrations') },
      { q: 'Huele a quemado después de conducir', expect: topic('smells') },
      { q: 'Hay un charco verde debajo del coche', expect: topic('leaks') },
      { q: 'El pedal de freno está esponjoso', expect: topic('brakes') },
      { q: '¿Qué presión deben tener los neumáticos?', expect: topic('tyres') },
      { q: 'El coche no arranca por la mañana, solo hace clic', expect: topic('battery') },
      { q: '¿Cada cuánto cambio el aceite?', expect: topic('oil-service') },
      { q: 'Se encendió el testigo del filtro de partículas', expect: topic('dpf') },
      { q: '¿Cómo cargo bien mi coche eléctrico?', expect: topic('ev') },
      { q: '¿Cómo preparo el coche para el invierno?', expect: topic('seasonal') },
      { q: '¿Qué reviso antes de comprar un coche usado?', expect: topic('used-car') },
      { q: 'Mi coche se sobrecalienta en verano', expect: topic('seasonal') },
    ],
  };
  return [...own[l], ...kb[l]];
}

function correct(answer: string, check: Check, l: Language): boolean {
  if ('topic' in check) return answer === TOPICS.find((t) => t.id === check.topic)?.answer[l];
  return check.has.every((s) => answer.includes(s)) && !(check.not ?? []).some((s) => answer.includes(s));
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'evdra-eval-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'eval-secret-that-is-long-enough-0123456789',
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    WEB_DIST: join(dataDir, 'none'),
  });
  const database = await openPglite();
  await database.migrate();
  const app = await buildApp({ config, database, logger: false });
  await app.ready();

  /** A logged-in user of language `l` who owns the eval fleet. */
  async function user(l: Language, n: number) {
    let cookie = '';
    let csrf = '';
    const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const res = await app.inject({
        method,
        url,
        payload: payload as object,
        headers: { cookie, 'x-csrf-token': csrf },
      });
      const set = res.cookies.find((c) => c.name === 'evdra_access');
      if (set) cookie = `evdra_access=${set.value}`;
      const body = res.headers['content-type']?.toString().includes('json') ? res.json() : res.body;
      if (body?.csrfToken) csrf = body.csrfToken;
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return body;
    };
    const name = `eval_${l}_${n}`;
    await call('POST', '/api/auth/register', {
      username: name,
      email: `${name}@eval.test`,
      password: 'eval-password-1',
      gdprConsent: true,
      language: l,
    });
    const car = (make: string, model: string, reg: string, fuelType: string, odometer: number) =>
      call('POST', '/api/vehicles', {
        make,
        model,
        year: 2019,
        fuelType,
        registrationNumber: reg,
        engineSize: 1.5,
        odometer,
        aiEvaluationConsent: true,
      });
    const golf = (await car('Volkswagen', 'Golf', 'GOLF-1', 'PETROL', 19_000)).id;
    const logan = (await car('Dacia', 'Logan', 'LOGAN-1', 'DIESEL', 97_000)).id;
    for (const f of golfFills)
      await call('POST', '/api/fuel-consumptions', { vehicleId: golf, fuelType: 'PETROL', ...f });
    await call('POST', '/api/fuel-consumptions', { vehicleId: logan, fuelType: 'DIESEL', ...loganFill });
    await call('POST', '/api/revision', { vehicleId: golf, date: day(-420), km: 12_000, price: 200 });
    await call('POST', '/api/revision', { vehicleId: golf, ...lastService, price: 220 });
    await call('POST', '/api/insurance', {
      vehicleId: golf,
      provider: 'Allianz',
      startDate: day(-165),
      endDate: golfInsuranceEnd,
      price: 180,
    });
    await call('POST', '/api/insurance', {
      vehicleId: logan,
      provider: 'Groupama',
      startDate: day(-344),
      endDate: loganInsuranceEnd,
      price: 150,
    });
    await call('POST', '/api/expenses', {
      vehicleId: golf,
      date: day(-20),
      expenseType: 'Tyres',
      amount: 390,
    });
    return { call, id: 0 };
  }

  let right = 0;
  let total = 0;
  const e2e: number[] = [];
  const wrong: string[] = [];
  const perLang: Record<string, { right: number; total: number }> = {};
  for (const l of ['en', 'ro', 'es'] as Language[]) {
    const qs = questions(l);
    perLang[l] = { right: 0, total: 0 };
    // At most 20 prompts per user per minute: a fresh user every 15 questions (follow-ups stay together).
    let u = await user(l, 0);
    let asked = 0;
    for (const [i, q] of qs.entries()) {
      if (asked >= 15 && !q.follow) {
        u = await user(l, i);
        asked = 0;
      }
      const started = performance.now();
      const { response } = await u.call('POST', '/api/chat', { prompt: q.q });
      e2e.push(performance.now() - started);
      asked += 1;
      total += 1;
      perLang[l].total += 1;
      if (correct(response, q.expect, l)) {
        right += 1;
        perLang[l].right += 1;
      } else wrong.push(`[${l}] ${q.q}\n      → ${response.split('\n')[0]?.slice(0, 140)}`);
    }
  }

  // The built-in provider alone, on facts computed once (what the 50 ms target is about).
  const builtin = new BuiltinProvider();
  const fx = new FxService(new FxRepo(database.db));
  const factsRepo = new FactsRepo(database.db, (to, until) => fx.latestRatesTo(to, until));
  const today = new Date().toISOString().slice(0, 10);
  const vehicles = await factsRepo.forOwner(1, today);
  const alone: number[] = [];
  const factsTimes: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const l of ['en', 'ro', 'es'] as Language[]) {
      for (const q of questions(l)) {
        const t0 = performance.now();
        await builtin.chat({
          prompt: q.q,
          language: l,
          history: [],
          context: undefined,
          facts: { language: l, today, vehicles },
        });
        alone.push(performance.now() - t0);
      }
      const t1 = performance.now();
      await factsRepo.forOwner(1, today);
      factsTimes.push(performance.now() - t1);
    }
  }
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });

  const sort = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  const s1 = sort(e2e);
  const s2 = sort(alone);
  const s3 = sort(factsTimes);
  console.log(
    `AI eval: ${total} questions (en ${perLang.en?.total}, ro ${perLang.ro?.total}, es ${perLang.es?.total})`,
  );
  for (const [l, r] of Object.entries(perLang)) console.log(`  ${l}: ${r.right}/${r.total} correct`);
  console.log(`correct: ${right}/${total} = ${((right / total) * 100).toFixed(1)}% (target ≥ 90%)`);
  console.log(
    `built-in provider alone: p50 ${ms(pct(s2, 50))}, p95 ${ms(pct(s2, 95))} over ${s2.length} answers (target p95 ≤ 50 ms)`,
  );
  console.log(`facts SQL for 2 vehicles (PGlite): p50 ${ms(pct(s3, 50))}, p95 ${ms(pct(s3, 95))}`);
  console.log(
    `POST /api/chat end to end (inject, PGlite, incl. history write): p50 ${ms(pct(s1, 50))}, p95 ${ms(pct(s1, 95))}`,
  );
  if (wrong.length) console.log(`wrong answers:\n  ${wrong.join('\n  ')}`);
}

await main();
