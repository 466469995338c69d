import { priceRating, TRANSFER_MESSAGE } from '@evdra/domain';
import { eq, inArray, sql } from 'drizzle-orm';
import { BuiltinProvider } from '../ai/builtin.js';
import { FactsRepo } from '../ai/facts.repo.js';
import type { Db } from '../db/client.js';
import { notifications, revisions, vehicles } from '../db/schema.js';
import type { FileStore } from '../files/file-store.js';
import { runReminderScan } from '../jobs/reminders.js';
import { AiService } from '../modules/ai/ai.service.js';
import { ChatRepo } from '../modules/ai/chat.repo.js';
import { AnalyticsRepo } from '../modules/analytics/analytics.repo.js';
import { AnalyticsService } from '../modules/analytics/analytics.service.js';
import type { Principal } from '../modules/auth/auth.service.js';
import { FxRepo } from '../modules/fx/fx.repo.js';
import { FxService } from '../modules/fx/fx.service.js';
import { MarketplaceRepo } from '../modules/marketplace/marketplace.repo.js';
import { MarketplaceService } from '../modules/marketplace/marketplace.service.js';
import { ReportsRepo } from '../modules/reports/reports.repo.js';
import { ReportsService } from '../modules/reports/reports.service.js';
import { endShares } from '../modules/sharing/sharing.repo.js';
import { VehiclesRepo } from '../modules/vehicles/vehicles.repo.js';
import { VehiclesService } from '../modules/vehicles/vehicles.service.js';
import { recordServices } from '../record-services.js';
import { seedBatchFeatures } from './batch-features.js';
import { listingPhotos } from './photos.js';

/** A demo vehicle as the base seed made it: whose, which model, and where its photos come from. */
export type SeededVehicle = { id: number; owner: string; make: string; model: string; photo: number };

/** How far a listing's price is from the spec's estimate, so the cards show every price band. */
const BAND_OFFSET = { 'Very High': 9_500, High: 5_500, Fair: 400, Low: -3_500, 'Very Low': -6_500 } as const;
type Band = keyof typeof BAND_OFFSET;

type ListingPlan = {
  owner: string;
  model: string;
  band: Band | 'N/A';
  photos: 2 | 3 | 4;
  description: string;
};

/** 9 listings: every price band, one car without an AI score (N/A), and one sold below. */
const LISTINGS: ListingPlan[] = [
  {
    owner: 'autopark',
    model: 'Passat',
    band: 'Very High',
    photos: 4,
    description: 'Full options, panoramic roof, dealer serviced. Registered in Romania.',
  },
  {
    owner: 'autopark',
    model: 'Sandero',
    band: 'High',
    photos: 3,
    description: 'Un singur proprietar, carte de service completă, anvelope noi.',
  },
  {
    owner: 'autopark',
    model: 'Kuga',
    band: 'Fair',
    photos: 3,
    description: 'Family SUV, towbar, winter tyres included.',
  },
  {
    owner: 'autopark',
    model: 'Leaf',
    band: 'Low',
    photos: 2,
    description: 'Baterie 40 kWh, încărcare rapidă CHAdeMO, autonomie reală 230 km.',
  },
  {
    owner: 'autopark',
    model: 'Megane',
    band: 'N/A',
    photos: 2,
    description: 'Trade-in, sold as seen. No AI evaluation yet.',
  },
  {
    owner: 'maria',
    model: '320d',
    band: 'Very Low',
    photos: 3,
    description: 'Vând rapid: mă mut în străinătate. Toate reviziile la zi în istoric.',
  },
  {
    owner: 'john',
    model: 'Focus',
    band: 'Fair',
    photos: 4,
    description: 'Daily driver, every service logged in Evdra since new tyres in spring.',
  },
  {
    owner: 'lucia',
    model: 'Golf',
    band: 'High',
    photos: 2,
    description: 'Muy cuidado, siempre en garaje. ITV recién pasada.',
  },
  { owner: 'john', model: 'Logan', band: 'Fair', photos: 3, description: 'Cheap to run, perfect first car.' },
];

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

const CONVERSATION: [speaker: 'maria' | 'john', text: string][] = [
  ['maria', 'Hi John! Is the Focus still available? I saw its whole service history on the card.'],
  ['john', 'Hi Maria, yes it is. Serviced every 15,000 km, the last one is in the history.'],
  ['maria', 'Great. Would you take a little less if I pick it up this weekend?'],
  ['john', 'Happy to talk about it on Saturday, and you can take it for a test drive.'],
];

/** Maria's questions to the mechanic (in her language); the built-in AI answers from her own records. */
const MECHANIC_QUESTIONS = ['Când am următoarea revizie?', 'Cât am cheltuit pe carburant luna trecută?'];

/**
 * What the base seed leaves out and a first look needs: AI scores, a marketplace with photos in every
 * price band (each with its history report), a conversation and a finished sale, the mechanic's chat,
 * a shared car, renewals, an imported history (batch-features.ts), and notifications of every kind
 * (some read). Done through the app's own services, so the data is what a user would have made.
 */
export async function seedShowcase(
  db: Db,
  store: FileStore,
  now: Date,
  users: Map<string, number>,
  seeded: SeededVehicle[],
): Promise<void> {
  const who = (username: string): Principal => ({
    userId: users.get(username) as number,
    role: 'USER',
    familyId: 'demo',
  });
  const carOf = (owner: string, model: string) => {
    const v = seeded.find((s) => s.owner === owner && s.model === model);
    if (!v) throw new Error(`demo: ${owner} has no ${model}`);
    return v;
  };
  const vehiclesService = new VehiclesService(new VehiclesRepo(db), store);
  const fx = new FxService(new FxRepo(db));
  const ai = new AiService({
    facts: new FactsRepo(db, (to, until) => fx.latestRatesTo(to, until)),
    chats: new ChatRepo(db),
    provider: new BuiltinProvider(),
    vehicles: vehiclesService,
    now: () => now,
    changed: () => {},
  });
  const { access } = recordServices(db, vehiclesService);
  const reports = new ReportsService({
    repo: new ReportsRepo(db),
    analytics: new AnalyticsService(new AnalyticsRepo(db), access),
    vehicles: vehiclesService,
    files: store,
    publicUrl: '',
    now: () => now,
  });
  // As the app does: a listing carries its history report, and a sale ends the car's shares.
  const market = new MarketplaceService(
    new MarketplaceRepo(db),
    store,
    () => {},
    {
      endShares: (tx, vehicleId, buyerId) => endShares(tx, vehicleId, 'TRANSFERRED', buyerId),
      ownerOnly: (p, vehicleId) => vehiclesService.owned(p, vehicleId),
    },
    (vehicleId, sellerId, listingId) => reports.listingLink(vehicleId, sellerId, listingId),
  );

  // The AI scores the price ratings need (with the owner's consent); the N/A car has neither.
  const rated = LISTINGS.filter((l) => l.band !== 'N/A').map((l) => carOf(l.owner, l.model));
  await db
    .update(vehicles)
    .set({ aiEvaluationConsent: true })
    .where(
      inArray(
        vehicles.id,
        rated.map((v) => v.id),
      ),
    );
  for (const v of rated) await ai.evaluate(who(v.owner), v.id, 'en');

  const listed = new Map<string, number>();
  for (const plan of LISTINGS) {
    const car = carOf(plan.owner, plan.model);
    const [v] = await db.select().from(vehicles).where(eq(vehicles.id, car.id));
    if (!v) throw new Error('demo: vehicle vanished');
    const estimate = priceRating(0, { ...v, aiScore: v.aiScore ?? 5 }).estimate ?? 0;
    const offset = plan.band === 'N/A' ? 0 : BAND_OFFSET[plan.band];
    const price = Math.max(900, Math.round((estimate + offset) / 50) * 50);
    const photos = await listingPhotos(car.photo, plan.photos);
    const listing = await market.create(
      who(plan.owner),
      { vehicleId: car.id, price, description: plan.description },
      photos,
    );
    listed.set(plan.model, listing.id);
  }

  // Maria asks John about his Focus.
  const focus = await market.interest(who('maria'), listed.get('Focus') as number);
  for (const [speaker, text] of CONVERSATION) await market.send(who(speaker), focus.interestId, text);

  // Lucia bought John's Logan: the car and its history are hers now.
  const logan = await market.interest(who('lucia'), listed.get('Logan') as number);
  await market.send(who('lucia'), logan.interestId, 'Hola John, me interesa el Logan. ¿Podemos cerrar hoy?');
  await market.send(who('john'), logan.interestId, 'Deal! Transferring it to you now.');
  await market.transfer(who('john'), logan.interestId);
  await market.send(who('john'), logan.interestId, TRANSFER_MESSAGE);

  for (const question of MECHANIC_QUESTIONS) await ai.chat(who('maria'), question, 'ro');
  await seedBatchFeatures(db, now, who, carOf, vehiclesService);

  // Maria booked her Clio's next service for next week: the scan reminds her of it.
  await db.execute(sql`
    update ${revisions} set manual_reminder_date = ${isoDay(addDays(now, 6))}
    where id = (select max(id) from ${revisions} where vehicle_id = ${carOf('maria', 'Clio').id})`);

  // Reminders as the daily scan makes them, unread; of the marketplace's, only the newest of each kind.
  await runReminderScan(db, now);
  await db.execute(sql`
    update ${notifications} n set read = true
    from (select id, row_number() over (partition by user_id, type order by created_at desc, id desc) as rank
          from ${notifications} where type like 'MARKET%') ranked
    where ranked.id = n.id and ranked.rank > 1`);
}
