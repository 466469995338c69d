import { Expense, FuelEntry, Insurance, type RecordKind, Renewal, Revision } from '@evdra/domain';
import type { z } from 'zod';
import type { Db } from './db/client.js';
import { emitEvent, emitEvents, vehicleAudience } from './db/events.js';
import * as schema from './db/schema.js';
import { fuelRules } from './modules/fuel/fuel.rules.js';
import { FxRepo } from './modules/fx/fx.repo.js';
import { FxService } from './modules/fx/fx.service.js';
import { ImportRepo } from './modules/import/import.repo.js';
import { ImportService } from './modules/import/import.service.js';
import { InsuranceService } from './modules/insurance/insurance.service.js';
import type { RateLookup } from './modules/records/record-money.js';
import { RecordsRepo, type RecordTable } from './modules/records/records.repo.js';
import { type RecordRules, RecordsService, type VehicleAccess } from './modules/records/records.service.js';
import { RenewalsService, renewalRules } from './modules/renewals/renewals.service.js';
import { RevisionsService } from './modules/revisions/revisions.service.js';
import { UsersRepo } from './modules/users/users.repo.js';
import type { VehiclesService } from './modules/vehicles/vehicles.service.js';
import type { WebhookPresence } from './modules/webhooks/webhook-presence.js';

type WebhooksExist = Pick<WebhookPresence, 'any'>;

/** An expense's money: its amount, on its day. */
const RECORD_MONEY = { amount: 'amount', date: (r: Record<string, unknown>) => r.date as string };
const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * The record services of every kind, on the one access rule, as the app serves them and the demo seed
 * writes through them. `vehicleChanged`: after a fill-up may have raised a vehicle's odometer.
 * `webhooks`: whether any webhook exists (WebhookPresence); without it, every write looks for subscribers.
 */
export function recordServices(
  db: Db,
  vehicles: VehiclesService,
  vehicleChanged: () => void = () => {},
  webhooks: WebhooksExist = { any: async () => true },
) {
  // Reading a vehicle's records: owner, editor, viewer, admin; writing them: not a viewer (403).
  const access: VehicleAccess = (p, vehicleId, mode = 'read') =>
    mode === 'write' ? vehicles.writable(p, vehicleId) : vehicles.visible(p, vehicleId);
  // A record in another currency than its owner's is converted at the reference rate of its day.
  const rates: RateLookup = (tx, from, to, date) => new FxService(new FxRepo(tx)).rate(from, to, date);
  const records = <T extends RecordTable>(name: string, table: T, rules?: RecordRules<T>) =>
    new RecordsService(name, new RecordsRepo(db, table), access, rules, rates);
  const services = {
    insurance: new InsuranceService(
      'Insurance',
      new RecordsRepo(db, schema.insurances),
      access,
      withEvents(webhooks, 'insurance', Insurance, {
        money: { amount: 'price', date: (r) => r.startDate as string },
      }),
      rates,
    ),
    expense: records(
      'Expense',
      schema.expenses,
      withEvents(webhooks, 'expense', Expense, { money: RECORD_MONEY }),
    ),
    fuel: records(
      'Fuel entry',
      schema.fuelEntries,
      withEvents(webhooks, 'fuel', FuelEntry, {
        ...fuelRules((tx, vehicleId, km) => vehicles.raiseOdometer(vehicleId, km, tx)),
        afterCommit: vehicleChanged,
        money: { amount: 'fuelPrice', date: (r) => r.date as string },
      }),
    ),
    revision: new RevisionsService(
      'Revision',
      new RecordsRepo(db, schema.revisions),
      access,
      withEvents(webhooks, 'revision', Revision, {
        money: { amount: 'price', date: (r) => r.date as string },
      }),
      rates,
    ),
    renewal: new RenewalsService(
      'Renewal',
      new RecordsRepo(db, schema.renewals),
      access,
      withEvents(webhooks, 'renewal', Renewal, {
        ...renewalRules,
        // The day the renewal starts; unknown, the day it is entered (as analytics count it).
        money: { amount: 'price', date: (r) => (r.validFrom as string | null) ?? todayUtc() },
      }),
      rates,
    ),
  };
  const users = new UsersRepo(db);
  const importer = new ImportService({
    repo: new ImportRepo(db),
    owned: (p, vehicleId) => vehicles.owned(p, vehicleId),
    visible: access,
    writers: {
      fuel: services.fuel,
      expenses: services.expense,
      revisions: services.revision,
      insurance: services.insurance,
    } as never,
    language: async (userId) => (await users.findById(userId))?.language ?? 'en',
    currency: async (userId) => (await users.findById(userId))?.currency ?? 'EUR',
    rates,
  });
  return { access, ...services, importer };
}

/**
 * The rules, plus webhook events (issue 53): record.created / updated / deleted with the record as
 * the API shows it (the response schema's fields), to everyone who reaches its vehicle, on the write's
 * own transaction, also for each record an import adds. Runs after the kind's own afterWrite (and
 * afterInsertMany), so derived fields (consumption) are in.
 */
function withEvents<T extends RecordTable>(
  webhooks: WebhooksExist,
  kind: RecordKind,
  shape: z.ZodObject,
  rules: RecordRules<T>,
): RecordRules<T> {
  const fields = Object.keys(shape.shape);
  const present = (row: object) =>
    Object.fromEntries(fields.map((f) => [f, (row as Record<string, unknown>)[f] ?? null]));
  return {
    ...rules,
    afterWrite: async (repo, vehicleId, change) => {
      const derived = await rules.afterWrite?.(repo, vehicleId, change);
      const { before, after } = change;
      if (after) {
        // The kind's afterWrite left the derived fields to be read: read them once, here.
        const row = rules.afterWrite && !derived ? await repo.get(after.id) : { ...after, ...derived };
        if (row && (await webhooks.any(repo.db))) {
          const event = before ? 'record.updated' : 'record.created';
          await emitEvent(repo.db, { event, kind, to: vehicleAudience(vehicleId), data: present(row) });
        }
        return (row ?? derived) as typeof derived;
      }
      // Only `before`: deleted, or moved to another vehicle (then it is still there: updated there).
      if (before && (await webhooks.any(repo.db)) && !(await repo.get(before.id))) {
        await emitEvent(repo.db, {
          event: 'record.deleted',
          kind,
          to: vehicleAudience(vehicleId),
          data: present(before),
        });
      }
      return derived;
    },
    // An import: one record.created per new record, queued in bulk (emitEvents).
    afterInsertMany: async (repo, vehicleId, rows, ids) => {
      await rules.afterInsertMany?.(repo, vehicleId, rows, ids);
      if (!(await webhooks.any(repo.db))) return;
      await emitEvents(repo.db, {
        event: 'record.created',
        kind,
        to: vehicleAudience(vehicleId),
        ids,
        load: async (chunk) => (await repo.getMany(chunk)).map(present),
      });
    },
  };
}
