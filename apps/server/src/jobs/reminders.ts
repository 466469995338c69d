import {
  INSURANCE_REMINDER_DAYS,
  type Language,
  REVISION_INTERVAL_KM,
  REVISION_INTERVAL_MONTHS,
  REVISION_REMINDER_DAYS,
  reachedThreshold,
} from '@evdra/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { notifications, sentReminders } from '../db/schema.js';
import { insuranceReminder, revisionReminder } from './reminder-texts.js';

const JOB_LOCK = 7_203_414;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

type Due = {
  key: string;
  userId: number;
  vehicleId: number;
  type: 'INSURANCE_REMINDER' | 'REVISION_REMINDER';
  title: string;
  content: string;
};

/**
 * Finds reminders due at `now` and notifies owners. One instance at a time (advisory lock); each
 * (item, due basis, threshold) is sent at most once ever; an item past several thresholds gets only
 * the nearest. Returns how many notifications it created, or null when another run holds the lock.
 */
export async function runReminderScan(db: Db, now: Date): Promise<number | null> {
  const today = isoDay(now);
  return db.transaction(async (tx) => {
    const [lock] = rowsOf<{ ok: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${JOB_LOCK}) as ok`),
    );
    if (!lock?.ok) return null;
    const due = [
      ...(await insurancesDue(tx as unknown as Db, today)),
      ...(await revisionsDue(tx as unknown as Db, today)),
    ];
    let created = 0;
    for (const d of due) {
      const fresh = await tx.insert(sentReminders).values({ key: d.key }).onConflictDoNothing().returning();
      if (fresh.length === 0) continue;
      const { key: _key, ...notification } = d;
      await tx.insert(notifications).values({ ...notification, createdAt: now });
      created += 1;
    }
    return created;
  });
}

type VehicleCols = {
  vehicleId: number;
  userId: number;
  lang: Language;
  make: string;
  model: string;
  registrationNumber: string;
};

async function insurancesDue(db: Db, today: string): Promise<Due[]> {
  const horizon = Math.max(...INSURANCE_REMINDER_DAYS);
  const list = rowsOf<VehicleCols & { id: number; provider: string; endDate: string; daysLeft: number }>(
    await db.execute(sql`
      select i.id, i.provider, to_char(i.end_date, 'YYYY-MM-DD') as "endDate", (i.end_date - ${today}::date) as "daysLeft",
             v.id as "vehicleId", v.make, v.model, v.registration_number as "registrationNumber",
             u.id as "userId", u.language as lang
        from insurances i join vehicles v on v.id = i.vehicle_id join users u on u.id = v.owner_id
       where i.reminder_enabled and i.end_date between ${today}::date and ${today}::date + ${horizon}::int`),
  );
  return list.flatMap((i) => {
    const t = reachedThreshold(Number(i.daysLeft), INSURANCE_REMINDER_DAYS);
    if (t === undefined) return [];
    return [
      {
        key: `INSURANCE:${i.id}:${i.endDate}:${t}`,
        userId: i.userId,
        vehicleId: i.vehicleId,
        type: 'INSURANCE_REMINDER',
        ...insuranceReminder(i.lang, i, i.provider, i.endDate, t),
      },
    ];
  });
}

/** Only each vehicle's latest service reminds: older ones were followed by a newer service. */
async function revisionsDue(db: Db, today: string): Promise<Due[]> {
  const list = rowsOf<
    VehicleCols & {
      id: number;
      manual: string | null;
      dueDate: string;
      daysLeft: number;
      kmDue: boolean;
      enabled: boolean;
    }
  >(
    await db.execute(sql`
      select r.id, r.reminder_enabled as enabled, to_char(r.manual_reminder_date, 'YYYY-MM-DD') as manual,
             to_char(coalesce(r.manual_reminder_date, (r.date + ${`${REVISION_INTERVAL_MONTHS} months`}::interval)::date), 'YYYY-MM-DD') as "dueDate",
             (coalesce(r.manual_reminder_date, (r.date + ${`${REVISION_INTERVAL_MONTHS} months`}::interval)::date) - ${today}::date) as "daysLeft",
             (v.odometer >= r.km + ${REVISION_INTERVAL_KM}) as "kmDue",
             v.id as "vehicleId", v.make, v.model, v.registration_number as "registrationNumber",
             u.id as "userId", u.language as lang
        from (select distinct on (vehicle_id) * from revisions order by vehicle_id, date desc, id desc) r
        join vehicles v on v.id = r.vehicle_id join users u on u.id = v.owner_id`),
  );
  return list.flatMap((r) => {
    if (!r.enabled) return [];
    const daysLeft = r.kmDue ? 0 : Math.max(0, Number(r.daysLeft));
    const t = reachedThreshold(daysLeft, REVISION_REMINDER_DAYS);
    if (t === undefined) return [];
    return [
      {
        // Due by km or by date is the same "due now": one notification for both.
        key: `REVISION:${r.id}:${r.manual ?? 'auto'}:${t}`,
        userId: r.userId,
        vehicleId: r.vehicleId,
        type: 'REVISION_REMINDER',
        ...revisionReminder(r.lang, r, r.dueDate, t, r.kmDue && Number(r.daysLeft) > 0),
      },
    ];
  });
}

/** Runs the scan now and every hour; errors are logged, never fatal. Returns a stop function. */
export function scheduleReminders(
  db: Db,
  log: { error: (o: object, m: string) => void; info: (o: object, m: string) => void },
) {
  const run = () =>
    runReminderScan(db, new Date()).then(
      (created) => created && log.info({ created }, 'reminder notifications created'),
      (err) => log.error({ err }, 'reminder scan failed'),
    );
  void run();
  const timer = setInterval(run, 60 * 60 * 1000).unref();
  return () => clearInterval(timer);
}
