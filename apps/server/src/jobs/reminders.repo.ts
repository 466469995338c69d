import {
  type DistanceUnitCode,
  type Language,
  REVISION_INTERVAL_KM,
  REVISION_INTERVAL_MONTHS,
  type RenewalType,
} from '@evdra/domain';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { createNotification } from '../db/notify.js';
import { rowsOf } from '../db/rows.js';
import { sentReminders } from '../db/schema.js';

const JOB_LOCK = 7_203_414;

/** The vehicle a reminder is about, and one person who gets it: its owner or a grantee (the access rule). */
export type VehicleCols = {
  vehicleId: number;
  userId: number;
  /** The recipient owns the vehicle (else it is shared with them). */
  isOwner: boolean;
  lang: Language;
  make: string;
  model: string;
  registrationNumber: string;
};

export type InsuranceDueRow = VehicleCols & {
  id: number;
  provider: string;
  endDate: string;
  daysLeft: number;
};
export type RevisionDueRow = VehicleCols & {
  id: number;
  manual: string | null;
  dueDate: string;
  daysLeft: number;
  kmDue: boolean;
  enabled: boolean;
  /** The recipient's distance unit: the interval is written in it (15,000 km or 9,321 mi). */
  distanceUnit: DistanceUnitCode;
};

export type RenewalDueRow = VehicleCols & {
  id: number;
  type: RenewalType;
  validUntil: string;
  daysLeft: number;
};

export type NewNotification = {
  userId: number;
  vehicleId: number;
  type: 'INSURANCE_REMINDER' | 'REVISION_REMINDER' | 'RENEWAL_REMINDER';
  title: string;
  content: string;
  createdAt: Date;
};

/** The reminder scan's SQL: what is due, which reminders went out, the notifications it creates. */
export class RemindersRepo {
  constructor(private readonly db: Executor) {}

  /** Runs `fn` in one transaction with this repo on it. */
  transaction<T>(fn: (repo: RemindersRepo) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new RemindersRepo(tx)));
  }

  /** Takes the scan's lock until the transaction ends; false when another run holds it. */
  async tryLock(): Promise<boolean> {
    const [lock] = rowsOf<{ ok: boolean }>(
      await this.db.execute(sql`select pg_try_advisory_xact_lock(${JOB_LOCK}) as ok`),
    );
    return !!lock?.ok;
  }

  /**
   * Insurances with a reminder on that end between `today` and `horizon` days later, once per person
   * who reaches the vehicle (owner, editors, viewers).
   */
  async insurancesEnding(today: string, horizon: number): Promise<InsuranceDueRow[]> {
    return rowsOf<InsuranceDueRow>(
      await this.db.execute(sql`
      select i.id, i.provider, to_char(i.end_date, 'YYYY-MM-DD') as "endDate", (i.end_date - ${today}::date) as "daysLeft",
             v.id as "vehicleId", v.make, v.model, v.registration_number as "registrationNumber",
             u.id as "userId", u.language as lang, (a.access = 'OWNER') as "isOwner"
        from insurances i join vehicles v on v.id = i.vehicle_id
        join vehicle_access a on a.vehicle_id = v.id join users u on u.id = a.user_id
       where i.reminder_enabled and i.end_date between ${today}::date and ${today}::date + ${horizon}::int`),
    );
  }

  /**
   * Renewals with a reminder on that expire between `today` and `horizon` days later, once per person
   * who reaches the vehicle (owner, editors, viewers).
   */
  async renewalsExpiring(today: string, horizon: number): Promise<RenewalDueRow[]> {
    return rowsOf<RenewalDueRow>(
      await this.db.execute(sql`
      select r.id, r.type, to_char(r.valid_until, 'YYYY-MM-DD') as "validUntil", (r.valid_until - ${today}::date) as "daysLeft",
             v.id as "vehicleId", v.make, v.model, v.registration_number as "registrationNumber",
             u.id as "userId", u.language as lang, (a.access = 'OWNER') as "isOwner"
        from renewals r join vehicles v on v.id = r.vehicle_id
        join vehicle_access a on a.vehicle_id = v.id join users u on u.id = a.user_id
       where r.reminder_enabled and r.valid_until between ${today}::date and ${today}::date + ${horizon}::int`),
    );
  }

  /** Each vehicle's latest revision, with when the next one is due (by date and by km), per person who reaches it. */
  async latestRevisions(today: string): Promise<RevisionDueRow[]> {
    return rowsOf<RevisionDueRow>(
      await this.db.execute(sql`
      select r.id, r.reminder_enabled as enabled, to_char(r.manual_reminder_date, 'YYYY-MM-DD') as manual,
             to_char(coalesce(r.manual_reminder_date, (r.date + ${`${REVISION_INTERVAL_MONTHS} months`}::interval)::date), 'YYYY-MM-DD') as "dueDate",
             (coalesce(r.manual_reminder_date, (r.date + ${`${REVISION_INTERVAL_MONTHS} months`}::interval)::date) - ${today}::date) as "daysLeft",
             (v.odometer >= r.km + ${REVISION_INTERVAL_KM}) as "kmDue",
             v.id as "vehicleId", v.make, v.model, v.registration_number as "registrationNumber",
             u.id as "userId", u.language as lang, (a.access = 'OWNER') as "isOwner",
             u.distance_unit as "distanceUnit"
        from (select distinct on (vehicle_id) * from revisions order by vehicle_id, date desc, id desc) r
        join vehicles v on v.id = r.vehicle_id
        join vehicle_access a on a.vehicle_id = v.id join users u on u.id = a.user_id`),
    );
  }

  /** Records that the reminder `key` went out; false when it already had. */
  async claim(key: string): Promise<boolean> {
    const fresh = await this.db.insert(sentReminders).values({ key }).onConflictDoNothing().returning();
    return fresh.length > 0;
  }

  /** Through the one notification writer: the bell's row and its push, in this transaction. */
  async notify(n: NewNotification): Promise<void> {
    await createNotification(this.db, n);
  }
}
