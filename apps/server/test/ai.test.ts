import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages } from '../src/db/schema.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';

/** A date `n` days from today (negative: in the past), YYYY-MM-DD. */
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const euro = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(n);
const dec2 = (n: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en-US', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${iso}T00:00:00Z`));

const car = (reg: string, extra: Record<string, unknown> = {}) => ({
  make: 'Volkswagen',
  model: 'Golf',
  year: new Date().getFullYear() - 6,
  fuelType: 'PETROL',
  registrationNumber: reg,
  engineSize: 1.4,
  odometer: 9_000,
  aiEvaluationConsent: true,
  ...extra,
});

let t: TestApp;
let admin: TestClient;
let alice: TestClient;
let bob: TestClient;
let golf: number;
let logan: number;
let noConsent: number;
let fresh: number;
const golfFills = [
  { date: day(-120), odometer: 10_000, liters: 40, fuelPrice: 60 },
  { date: day(-90), odometer: 10_500, liters: 35, fuelPrice: 52.5 },
  { date: day(-60), odometer: 11_000, liters: 30, fuelPrice: 45 },
  { date: day(-30), odometer: 11_500, liters: 45, fuelPrice: 72 },
];

async function registerIn(language: string) {
  const client = new TestClient(t.app);
  const res = await client.post('/api/auth/register', { ...newAccount(language), language });
  expect(res.statusCode).toBe(201);
  return client;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await registered(t.app, 'admin')).client; // the first account is the administrator
  alice = (await registered(t.app, 'alice')).client;
  bob = (await registered(t.app, 'bob')).client;
  golf = (await alice.post('/api/vehicles', car('AI-1'))).data.id;
  logan = (
    await alice.post(
      '/api/vehicles',
      car('AI-2', { make: 'Dacia', model: 'Logan', fuelType: 'DIESEL', engineSize: 1.5, odometer: 150_000 }),
    )
  ).data.id;
  noConsent = (await alice.post('/api/vehicles', car('AI-3', { aiEvaluationConsent: false }))).data.id;
  fresh = (
    await alice.post(
      '/api/vehicles',
      car('AI-4', { make: 'Fiat', model: 'Panda', year: new Date().getFullYear() }),
    )
  ).data.id;
  for (const f of golfFills) {
    const res = await alice.post('/api/fuel-consumptions', { vehicleId: golf, fuelType: 'PETROL', ...f });
    expect(res.statusCode).toBe(201);
  }
  await alice.post('/api/revision', { vehicleId: golf, date: day(-400), km: 9_000, price: 300 });
  await alice.post('/api/revision', { vehicleId: golf, date: day(-40), km: 11_200, price: 350 });
  await alice.post('/api/insurance', {
    vehicleId: golf,
    provider: 'Allianz',
    startDate: day(-100),
    endDate: day(265),
    price: 400,
  });
  await alice.post('/api/expenses', { vehicleId: golf, date: day(-50), expenseType: 'Tyres', amount: 500 });
  await alice.post('/api/insurance', {
    vehicleId: logan,
    provider: 'Groupama',
    startDate: day(-335),
    endDate: day(30),
    price: 300,
  });
  await alice.post('/api/fuel-consumptions', {
    vehicleId: logan,
    fuelType: 'DIESEL',
    liters: 50,
    fuelPrice: 80,
    odometer: 150_500,
    date: day(-45),
  });
});
afterAll(() => t.close());

describe('POST /api/vehicles/{id}/evaluate-ai', () => {
  it('scores 1–10 with a reason that names factors with their numbers, and keeps it on the vehicle', async () => {
    const res = await alice.post(`/api/vehicles/${golf}/evaluate-ai`);
    expect(res.statusCode).toBe(200);
    expect(res.data.id).toBe(golf);
    expect(Number.isInteger(res.data.aiScore)).toBe(true);
    expect(res.data.aiScore).toBeGreaterThanOrEqual(1);
    expect(res.data.aiScore).toBeLessThanOrEqual(10);
    // Two services 2,200 km and 360 days apart; 4 fills averaging (7 + 6 + 9) / 3 L/100 km.
    expect(res.data.aiScoreReason).toContain('Serviced every 2,200 km on average (every 360 days)');
    const again = await alice.get(`/api/vehicles/${golf}`);
    expect(again.data).toMatchObject({ aiScore: res.data.aiScore, aiScoreReason: res.data.aiScoreReason });
    const list = await alice.get('/api/vehicles');
    expect(list.data.find((v: { id: number }) => v.id === golf).aiScore).toBe(res.data.aiScore);
  });

  it('leaves an odometer rollback out of the service interval instead of reporting a negative one', async () => {
    const car2 = (await alice.post('/api/vehicles', car('AI-RB', { odometer: 20_000 }))).data.id;
    for (const [date, km] of [
      [day(-600), 10_000],
      [day(-300), 20_000],
      [day(-100), 15_500],
    ] as const)
      expect((await alice.post('/api/revision', { vehicleId: car2, date, km, price: 200 })).statusCode).toBe(
        201,
      );
    const res = await alice.post(`/api/vehicles/${car2}/evaluate-ai`);
    expect(res.data.aiScoreReason).toContain('Serviced every 10,000 km on average (every 250 days)');
    expect(res.data.aiScoreReason).not.toMatch(/every -/);
  });

  it('scores conservatively and says so when there are few records; re-evaluating replaces the score', async () => {
    const first = await alice.post(`/api/vehicles/${fresh}/evaluate-ai`);
    expect(first.statusCode).toBe(200);
    expect(first.data.aiScore).toBeLessThanOrEqual(6);
    expect(first.data.aiScoreReason).toContain('Only 0 record(s) so far, so the score is conservative');
    for (const [i, km] of [1_000, 2_000, 3_000].entries())
      await alice.post('/api/revision', { vehicleId: fresh, date: day(-300 + i * 100), km, price: 100 });
    await alice.post('/api/insurance', {
      vehicleId: fresh,
      provider: 'X',
      startDate: day(-10),
      endDate: day(355),
      price: 1,
    });
    await alice.post('/api/expenses', { vehicleId: fresh, date: day(-5), expenseType: 'Wash', amount: 10 });
    const second = await alice.post(`/api/vehicles/${fresh}/evaluate-ai`);
    expect(second.data.aiScoreReason).not.toContain('conservative');
    expect(second.data.aiScore).toBeGreaterThan(first.data.aiScore);
    expect(second.data.version).toBeGreaterThan(first.data.version);
  });

  it('refuses without consent (409 AI_CONSENT_REQUIRED) and keeps no score', async () => {
    expectError(await alice.post(`/api/vehicles/${noConsent}/evaluate-ai`), 409, 'AI_CONSENT_REQUIRED');
    expect((await alice.get(`/api/vehicles/${noConsent}`)).data.aiScore).toBeNull();
  });

  it('answers 404 to another user and to an administrator, and changes nothing', async () => {
    const before = (await alice.get(`/api/vehicles/${logan}`)).data;
    expectError(await bob.post(`/api/vehicles/${logan}/evaluate-ai`), 404, 'NOT_FOUND');
    expectError(await admin.post(`/api/vehicles/${logan}/evaluate-ai`), 404, 'NOT_FOUND');
    expectError(await bob.post('/api/vehicles/999999/evaluate-ai'), 404, 'NOT_FOUND');
    expect((await alice.get(`/api/vehicles/${logan}`)).data).toEqual(before);
    expectError(
      await new TestClient(t.app).post(`/api/vehicles/${golf}/evaluate-ai`),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('answers in the saved language of the user', async () => {
    const ro = await registerIn('ro');
    const id = (await ro.post('/api/vehicles', car('RO-1'))).data.id;
    const res = await ro.post(`/api/vehicles/${id}/evaluate-ai`);
    expect(res.data.aiScoreReason).toContain('scorul este prudent');
  });
});

describe('GET /ai-feedback/vehicle/{id}/performance and /fuel', () => {
  it('summarises costs as text/plain from the records', async () => {
    const res = await alice.get(`/ai-feedback/vehicle/${golf}/performance`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const fuel = golfFills.reduce((s, f) => s + f.fuelPrice, 0);
    const total = fuel + 300 + 350 + 400 + 500;
    expect(res.body).toContain(
      `cost ${euro(total)} in total: fuel ${euro(fuel)}, expenses ${euro(500)}, insurance ${euro(400)}, services ${euro(650)}`,
    );
    // Odometer readings from 9,000 (first service) to 11,500 (last fill): 2,500 km.
    expect(res.body).toContain(
      `That is ${euro(Math.round((total / 2500) * 1000) / 1000)} per km over 2,500 km on record.`,
    );
    expect(res.body).toContain(`The biggest category is services (${euro(650)}`);
    expect(res.body).toMatch(/Tip: /);
  });

  it('summarises fuel: average full tank to full tank, latest, best and worst, a jump, the price trend', async () => {
    const entries = (await alice.get(`/api/fuel-consumptions/vehicle/${golf}`)).data as {
      consumptionPer100km: number | null;
    }[];
    const measured = entries.map((e) => e.consumptionPer100km).filter((c): c is number => c !== null);
    expect(measured.sort()).toEqual([6, 7, 9]);
    const avg = Math.round((measured.reduce((s, c) => s + c, 0) / measured.length) * 100) / 100;
    const res = await alice.get(`/ai-feedback/vehicle/${golf}/fuel`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain(
      `Average consumption from full tank to full tank: ${dec2(avg)} L/100 km (3 measurement(s))`,
    );
    expect(res.body).toContain(`The latest is 9.00 L/100 km on ${longDate(day(-30))}`);
    expect(res.body).toContain(`Best fill: 6.00 L/100 km (${longDate(day(-60))}); worst: 9.00 L/100 km`);
    expect(res.body).toContain('which can hint at a fault');
    // Last 3 fills at 1.5, 1.5, 1.6 €/L against 1.5 before.
    expect(res.body).toContain(
      'Price per litre: 1.533 € on the last 3 fill-ups against 1.500 € before (2% higher).',
    );
  });

  it('says what to add when there are no records, without an error', async () => {
    const id = (await alice.post('/api/vehicles', car('AI-5', { make: 'Seat', model: 'Ibiza' }))).data.id;
    const perf = await alice.get(`/ai-feedback/vehicle/${id}/performance`);
    expect(perf.statusCode).toBe(200);
    expect(perf.body).toContain('There are no costs recorded for the Seat Ibiza yet. Add fuel fill-ups');
    const fuel = await alice.get(`/ai-feedback/vehicle/${id}/fuel`);
    expect(fuel.statusCode).toBe(200);
    expect(fuel.body).toContain('No fuel entries for the Seat Ibiza yet.');
  });

  it("writes a shared car's summary in each reader's own saved language", async () => {
    const id = (await alice.post('/api/vehicles', car('AI-7', { make: 'Seat', model: 'Leon' }))).data.id;
    const ro = await registerIn('ro');
    const roName = (await ro.get('/api/users/me')).data.username;
    expect(
      (await alice.post(`/api/vehicles/${id}/shares`, { username: roName, role: 'VIEWER' })).statusCode,
    ).toBe(201);
    // The same cached facts, two readers: the language is the reader's, not the owner's or the cache's.
    for (let i = 0; i < 2; i++) {
      expect((await alice.get(`/ai-feedback/vehicle/${id}/performance`)).body).toContain(
        'There are no costs recorded for the Seat Leon yet.',
      );
      expect((await ro.get(`/ai-feedback/vehicle/${id}/performance`)).body).toContain(
        'Nu există încă niciun cost înregistrat pentru Seat Leon.',
      );
    }
    expect((await ro.get(`/ai-feedback/vehicle/${id}/fuel`)).body).toContain(
      'Nu există încă alimentări pentru Seat Leon.',
    );
  });

  it('rewrites a summary after a record is added and after the car is edited, never a stale one', async () => {
    const id = (await alice.post('/api/vehicles', car('AI-6', { make: 'Seat', model: 'Ibiza' }))).data.id;
    const performance = async () => (await alice.get(`/ai-feedback/vehicle/${id}/performance`)).body;
    expect(await performance()).toContain('There are no costs recorded for the Seat Ibiza yet.');
    expect(await performance()).toContain('There are no costs recorded for the Seat Ibiza yet.');
    await alice.post('/api/expenses', { vehicleId: id, date: day(-3), expenseType: 'Repair', amount: 120 });
    expect(await performance()).toContain(`cost ${euro(120)} in total`);
    const { version } = (await alice.get(`/api/vehicles/${id}`)).data;
    const put = await alice.put(`/api/vehicles/${id}`, car('AI-6', { make: 'Seat', model: 'Leon', version }));
    expect(put.statusCode).toBe(200);
    const renamed = await performance();
    expect(renamed).toContain('Seat Leon');
    expect(renamed).not.toContain('Seat Ibiza');
  });

  it('answers in Spanish for a Spanish user', async () => {
    const es = await registerIn('es');
    const id = (await es.post('/api/vehicles', car('ES-1'))).data.id;
    const res = await es.get(`/ai-feedback/vehicle/${id}/performance`);
    expect(res.body).toContain('Todavía no hay costes registrados para el Volkswagen Golf.');
  });

  it('needs consent and ownership', async () => {
    for (const kind of ['performance', 'fuel']) {
      expectError(await alice.get(`/ai-feedback/vehicle/${noConsent}/${kind}`), 409, 'AI_CONSENT_REQUIRED');
      const other = await bob.get(`/ai-feedback/vehicle/${golf}/${kind}`);
      expectError(other, 404, 'NOT_FOUND');
      expect(other.body).not.toContain('Golf');
      expectError(await admin.get(`/ai-feedback/vehicle/${golf}/${kind}`), 404, 'NOT_FOUND');
      expectError(
        await new TestClient(t.app).get(`/ai-feedback/vehicle/${golf}/${kind}`),
        401,
        'UNAUTHENTICATED',
      );
    }
    expectError(await alice.get('/ai-feedback/vehicle/abc/fuel'), 400, 'VALIDATION_FAILED');
  });
});

describe('GET /api/ai/status', () => {
  it('says the built-in provider answers when no AI server is configured', async () => {
    const res = await alice.get('/api/ai/status');
    expect(res.data).toEqual({ provider: 'builtin', model: null, languages: ['en', 'ro', 'es'] });
    expectError(await new TestClient(t.app).get('/api/ai/status'), 401, 'UNAUTHENTICATED');
  });
});

describe('virtual mechanic chat', () => {
  const ask = async (c: TestClient, prompt: string) => {
    const res = await c.post('/api/chat', { prompt });
    expect(res.statusCode).toBe(200);
    return res.data.response as string;
  };

  it('answers own-data questions from the records, naming each car', async () => {
    const service = await ask(alice, 'When is my next service?');
    const next = new Date(`${day(-40)}T00:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 12);
    expect(service).toContain(
      `**Volkswagen Golf**: next service by ${longDate(next.toISOString().slice(0, 10))} or at 26,200 km`,
    );
    expect(service).toContain('**Dacia Logan**: no service recorded yet');

    const insurance = await ask(alice, 'When does my insurance end?');
    expect(insurance).toContain(
      `**Volkswagen Golf**: insured with Allianz until ${longDate(day(265))} (265 days left).`,
    );
    expect(insurance).toContain(
      `**Dacia Logan**: insured with Groupama until ${longDate(day(30))} (30 days left).`,
    );
  });

  it('answers fuel spend in a named month, with the total of all cars', async () => {
    const month = day(-45).slice(0, 7);
    const name = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(
      new Date(`${month}-01T00:00:00Z`),
    );
    const golfSpend = golfFills.filter((f) => f.date.startsWith(month)).reduce((s, f) => s + f.fuelPrice, 0);
    const reply = await ask(alice, `How much did I spend on fuel in ${name}?`);
    const label = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${month}-01T00:00:00Z`));
    expect(reply).toContain(`**Dacia Logan**: ${euro(80)} on fuel in ${label} (50.00 L).`);
    expect(reply).toContain(`All together: ${euro(80 + golfSpend)}.`);
  });

  it('keeps the context: a named car, then "and the other car?"', async () => {
    const golfReply = await ask(alice, "What is my Golf's consumption?");
    expect(golfReply).toContain('**Volkswagen Golf**: 7.33 L/100 km on average');
    expect(golfReply).not.toContain('Logan');
    const other = await ask(alice, 'And the other car?');
    expect(await ask(alice, 'Thanks!')).toBe("You're welcome! Ask me anything else about your cars.");
    expect(other).toContain('**Dacia Logan**');
    expect(other).not.toContain('Golf');
    // The Logan has a single fill: no full-tank-to-full-tank pair yet.
    expect(other).toContain('not enough full-tank fill-ups');
  });

  it('answers mechanic questions from the knowledge base, with safety advice, in the user language', async () => {
    const brakes = await ask(alice, 'My brakes make a grinding noise and the pedal feels spongy');
    expect(brakes).toContain('stop driving');
    const ro = await registerIn('ro');
    const dpf = await ask(ro, 'Mi s-a aprins martorul de filtru de particule, ce fac?');
    expect(dpf).toContain('Filtrul de particule');
    const es = await registerIn('es');
    expect(await ask(es, '¿Cuándo vence mi seguro?')).toContain('Todavía no tienes vehículos');
  });

  it('keeps the history per user, oldest first, and clears it', async () => {
    const carol = (await registered(t.app, 'carol')).client;
    await ask(carol, 'hello');
    await ask(carol, 'How often should I change the oil?');
    const history = (await carol.get('/api/chat/history')).data;
    expect(history.map((m: { role: string }) => m.role)).toEqual(['user', 'ai', 'user', 'ai']);
    expect(history[0]).toEqual({ role: 'user', content: 'hello' });
    expect(history[3].content).toContain('15,000 km or 12 months');
    expect((await carol.get('/api/chat')).data).toEqual(history);
    const bobs = (await bob.get('/api/chat/history')).data;
    expect(bobs).toEqual([]);
    expect((await bob.delete('/api/chat/history')).statusCode).toBe(204);
    expect((await carol.get('/api/chat/history')).data).toHaveLength(4);
    // A kept conversation never hides a newer message.
    await ask(carol, 'thanks');
    expect((await carol.get('/api/chat/history')).data.slice(4)[0]).toEqual({
      role: 'user',
      content: 'thanks',
    });
    expect((await carol.delete('/api/chat/history')).statusCode).toBe(204);
    expect((await carol.get('/api/chat/history')).data).toEqual([]);
    expectError(await new TestClient(t.app).get('/api/chat/history'), 401, 'UNAUTHENTICATED');
    expectError(await carol.delete('/api/chat/history', { csrf: false }), 403, 'CSRF_FAILED');
  });

  it('keeps only the newest 200 messages', async () => {
    const dave = await registered(t.app, 'dave');
    await t.database.db.insert(chatMessages).values(
      Array.from({ length: 210 }, (_, i) => ({
        userId: dave.user.id,
        role: 'user' as const,
        content: `old ${i}`,
      })),
    );
    await ask(dave.client, 'hi');
    const history = (await dave.client.get('/api/chat/history')).data;
    expect(history).toHaveLength(200);
    expect(history[0].content).toBe('old 12');
    expect(history[199].role).toBe('ai');
    // Still 200 messages after the next question, but not the same ones.
    await ask(dave.client, 'hi again');
    const next = (await dave.client.get('/api/chat/history')).data;
    expect(next).toHaveLength(200);
    expect(next[0].content).toBe('old 14');
    expect(next[198]).toEqual({ role: 'user', content: 'hi again' });
  });

  it('refuses blank and too long prompts', async () => {
    expectInvalid(await alice.post('/api/chat', { prompt: '   ' }), 'prompt');
    expectInvalid(await alice.post('/api/chat', {}), 'prompt');
    expectInvalid(await alice.post('/api/chat', { prompt: 'x'.repeat(2001) }), 'prompt');
    expect((await alice.post('/api/chat', { prompt: `${'x'.repeat(1990)} brakes` })).statusCode).toBe(200);
  });

  it('allows 20 prompts per user per minute, then 429', async () => {
    const erin = (await registered(t.app, 'erin')).client;
    for (let i = 0; i < 20; i++)
      expect((await erin.post('/api/chat', { prompt: `tyre pressure ${i}` })).statusCode).toBe(200);
    const limited = await erin.post('/api/chat', { prompt: 'one more' });
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Other users are not affected.
    expect((await bob.post('/api/chat', { prompt: 'hello' })).statusCode).toBe(200);
  });
});
