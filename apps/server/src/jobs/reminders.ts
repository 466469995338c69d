import { INSURANCE_REMINDER_DAYS, RENEWAL_REMINDER_DAYS, REVISION_REMINDER_DAYS } from '@evdra/domain';
import type { Db } from '../db/client.js';
import { paced } from '../lib/pace.js';
import { insuranceReminder, renewalReminder, revisionReminder } from './reminder-texts.js';
import {
  type InsuranceDueRow,
  type KeyedNotification,
  RemindersRepo,
  type RenewalDueRow,
  type RevisionDueRow,
} from './reminders.repo.js';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Notifications per transaction: one statement each for their claims, rows, pushes and events. */
const CHUNK = 250;
/** Vehicles (by id) whose latest service one statement checks. */
const VEHICLES_PER_SCAN = 2_500;
/**
 * After each step the scan rests as long as the step took: it holds about half a core, in short
 * steps, instead of a whole one. A night of 30,000 reminders among 600,000 cars took 14 s and made
 * reads beside it up to 2.0× slower on 2 cores; rested, 17 s and 1.3–1.7× (issue 54: 60 s and 2×).
 */
const REST = 1;

/** The databases a scan is running on in this process: a second one there returns at once. */
const running = new WeakSet<Db>();

/**
 * Finds reminders due at `now` and notifies the owners and everyone the vehicle is shared with. Each
 * (item, due basis, threshold) is sent at most once ever (sent_reminders' key, claimed in the same
 * transaction as the notification, so overlapping runs, here or in other processes, never send one
 * twice); an item past several thresholds gets only the nearest. Set-based: the due items come from a
 * few statements (insurances and renewals by their date's index, services a range of vehicles at a
 * time), the notifications are written CHUNK at a time, each chunk its own short transaction, so
 * requests are served between them. Returns how many notifications it created, or null when a scan is
 * already running on this database in this process.
 */
export async function runReminderScan(db: Db, now: Date): Promise<number | null> {
  if (running.has(db)) return null;
  running.add(db);
  try {
    const repo = new RemindersRepo(db);
    const today = isoDay(now);
    let created = 0;
    const send = async (due: KeyedNotification[]) => {
      for (let i = 0; i < due.length; i += CHUNK)
        created += await paced(REST, () => repo.notifyOnce(due.slice(i, i + CHUNK)));
    };
    const insurances = await paced(REST, () => repo.insurancesDue(today, INSURANCE_REMINDER_DAYS));
    await send(insurances.map((i) => insurance(i, now)));
    const ids = await repo.vehicleIds();
    for (let from = ids?.first ?? 0; ids && from <= ids.last; from += VEHICLES_PER_SCAN) {
      const to = from + VEHICLES_PER_SCAN;
      const services = await paced(REST, () => repo.revisionsDue(today, REVISION_REMINDER_DAYS, from, to));
      await send(services.map((r) => revision(r, now)));
    }
    const renewals = await paced(REST, () => repo.renewalsDue(today, RENEWAL_REMINDER_DAYS));
    await send(renewals.map((r) => renewal(r, now)));
    return created;
  } finally {
    running.delete(db);
  }
}

const insurance = (i: InsuranceDueRow, createdAt: Date): KeyedNotification => ({
  key: i.key,
  userId: i.userId,
  vehicleId: i.vehicleId,
  type: 'INSURANCE_REMINDER',
  createdAt,
  ...insuranceReminder(i.lang, i, i.provider, i.endDate, i.threshold),
});

const renewal = (r: RenewalDueRow, createdAt: Date): KeyedNotification => ({
  key: r.key,
  userId: r.userId,
  vehicleId: r.vehicleId,
  type: 'RENEWAL_REMINDER',
  createdAt,
  ...renewalReminder(r.lang, r, r.type, r.validUntil, r.threshold),
});

/** "Driven 15,000 km since" when due by km before its date, else "due on <date>". */
const revision = (r: RevisionDueRow, createdAt: Date): KeyedNotification => ({
  key: r.key,
  userId: r.userId,
  vehicleId: r.vehicleId,
  type: 'REVISION_REMINDER',
  createdAt,
  ...revisionReminder(r.lang, r, r.dueDate, r.threshold, !!r.kmDue && Number(r.daysLeft) > 0, r.distanceUnit),
});

/**
 * Runs the scan `firstAfterMs` from now (0: at once), then every hour; errors are logged, never
 * fatal. Returns a stop function. The server waits before its first scan: its statements (~0.5 s
 * on a cold embedded database) would share PGlite's one session with the first requests after a
 * restart.
 */
export function scheduleReminders(
  db: Db,
  log: { error: (o: object, m: string) => void; info: (o: object, m: string) => void },
  firstAfterMs = 0,
) {
  const run = () =>
    runReminderScan(db, new Date()).then(
      (created) => created && log.info({ created }, 'reminder notifications created'),
      (err) => log.error({ err }, 'reminder scan failed'),
    );
  let hourly: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    void run();
    hourly = setInterval(run, 60 * 60 * 1000).unref();
  }, firstAfterMs).unref();
  return () => {
    clearTimeout(first);
    clearInterval(hourly);
  };
}
