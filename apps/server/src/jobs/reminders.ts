import {
  INSURANCE_REMINDER_DAYS,
  RENEWAL_REMINDER_DAYS,
  REVISION_REMINDER_DAYS,
  reachedThreshold,
} from '@evdra/domain';
import type { Db } from '../db/client.js';
import { insuranceReminder, renewalReminder, revisionReminder } from './reminder-texts.js';
import { RemindersRepo } from './reminders.repo.js';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

type Due = {
  key: string;
  userId: number;
  vehicleId: number;
  type: 'INSURANCE_REMINDER' | 'REVISION_REMINDER' | 'RENEWAL_REMINDER';
  title: string;
  content: string;
};

/**
 * The sent-reminder key of one recipient: the owner's is the item's key as it always was (so nothing
 * sent before sharing existed goes out again); a grantee's adds their user id.
 */
const recipientKey = (key: string, to: { userId: number; isOwner: boolean }) =>
  to.isOwner ? key : `${key}:u${to.userId}`;

/**
 * Finds reminders due at `now` and notifies the owners and everyone the vehicle is shared with. One instance at a time (advisory lock); each
 * (item, due basis, threshold) is sent at most once ever; an item past several thresholds gets only
 * the nearest. Returns how many notifications it created, or null when another run holds the lock.
 */
export async function runReminderScan(db: Db, now: Date): Promise<number | null> {
  const today = isoDay(now);
  return new RemindersRepo(db).transaction(async (repo) => {
    if (!(await repo.tryLock())) return null;
    const due = [
      ...(await insurancesDue(repo, today)),
      ...(await revisionsDue(repo, today)),
      ...(await renewalsDue(repo, today)),
    ];
    let created = 0;
    for (const d of due) {
      if (!(await repo.claim(d.key))) continue;
      const { key: _key, ...notification } = d;
      await repo.notify({ ...notification, createdAt: now });
      created += 1;
    }
    return created;
  });
}

async function insurancesDue(repo: RemindersRepo, today: string): Promise<Due[]> {
  const list = await repo.insurancesEnding(today, Math.max(...INSURANCE_REMINDER_DAYS));
  return list.flatMap((i) => {
    const t = reachedThreshold(Number(i.daysLeft), INSURANCE_REMINDER_DAYS);
    if (t === undefined) return [];
    return [
      {
        key: recipientKey(`INSURANCE:${i.id}:${i.endDate}:${t}`, i),
        userId: i.userId,
        vehicleId: i.vehicleId,
        type: 'INSURANCE_REMINDER',
        ...insuranceReminder(i.lang, i, i.provider, i.endDate, t),
      },
    ];
  });
}

/** Like insurance: 30, 7 and 1 days before the last valid day, and on it; once per (renewal, date, threshold). */
async function renewalsDue(repo: RemindersRepo, today: string): Promise<Due[]> {
  const list = await repo.renewalsExpiring(today, Math.max(...RENEWAL_REMINDER_DAYS));
  return list.flatMap((r) => {
    const t = reachedThreshold(Number(r.daysLeft), RENEWAL_REMINDER_DAYS);
    if (t === undefined) return [];
    return [
      {
        key: recipientKey(`RENEWAL:${r.id}:${r.validUntil}:${t}`, r),
        userId: r.userId,
        vehicleId: r.vehicleId,
        type: 'RENEWAL_REMINDER',
        ...renewalReminder(r.lang, r, r.type, r.validUntil, t),
      },
    ];
  });
}

/** Only each vehicle's latest service reminds: older ones were followed by a newer service. */
async function revisionsDue(repo: RemindersRepo, today: string): Promise<Due[]> {
  const list = await repo.latestRevisions(today);
  return list.flatMap((r) => {
    if (!r.enabled) return [];
    const daysLeft = r.kmDue ? 0 : Math.max(0, Number(r.daysLeft));
    const t = reachedThreshold(daysLeft, REVISION_REMINDER_DAYS);
    if (t === undefined) return [];
    return [
      {
        // Due by km or by date is the same "due now": one notification for both.
        key: recipientKey(`REVISION:${r.id}:${r.manual ?? 'auto'}:${t}`, r),
        userId: r.userId,
        vehicleId: r.vehicleId,
        type: 'REVISION_REMINDER',
        ...revisionReminder(r.lang, r, r.dueDate, t, r.kmDue && Number(r.daysLeft) > 0, r.distanceUnit),
      },
    ];
  });
}

/**
 * Runs the scan `firstAfterMs` from now (0: at once), then every hour; errors are logged, never
 * fatal. Returns a stop function. The server waits before its first scan: the scan reads every
 * reminder in one transaction (~0.5 s on a cold embedded database), and a request made meanwhile
 * would wait for PGlite's one session, the first ones after a restart included.
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
