import {
  type DistanceUnitCode,
  type Language,
  REVISION_INTERVAL_KM,
  REVISION_INTERVAL_MONTHS,
  type RenewalType,
} from '@evdra/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { createNotifications, type NewNotification } from '../db/notify.js';
import { rowsOf } from '../db/rows.js';

const JOB_LOCK = 7_203_414;

/** The vehicle a reminder is about, and one person who gets it: its owner or a grantee (the access rule). */
export type VehicleCols = {
  vehicleId: number;
  userId: number;
  lang: Language;
  make: string;
  model: string;
  registrationNumber: string;
  /** The reminder's sent_reminders key for this recipient, not sent yet. */
  key: string;
  /** The nearest threshold reached (days before the due day). */
  threshold: number;
};

export type InsuranceDueRow = VehicleCols & { id: number; provider: string; endDate: string };

export type RevisionDueRow = VehicleCols & {
  id: number;
  dueDate: string;
  daysLeft: number;
  kmDue: boolean | null;
  /** The recipient's distance unit: the interval is written in it (15,000 km or 9,321 mi). */
  distanceUnit: DistanceUnitCode;
};

export type RenewalDueRow = VehicleCols & { id: number; type: RenewalType; validUntil: string };

export type KeyedNotification = NewNotification & { key: string };

const pgInts = (xs: readonly number[]) => `{${xs.join(',')}}`;

/**
 * The reminder scan's SQL: what is due and not sent yet, and the notifications it creates. The
 * sent-reminder key of a recipient is the item's key as it always was for the owner (so nothing sent
 * before sharing existed goes out again); a grantee's adds `:u<their id>`.
 */
export class RemindersRepo {
  constructor(private readonly db: Executor) {}

  /**
   * Insurances with a reminder on that end between `today` and the furthest threshold, per person who
   * reaches the vehicle, at the nearest threshold reached, not sent yet (the partial index on
   * end_date finds them).
   */
  async insurancesDue(today: string, thresholds: readonly number[]): Promise<InsuranceDueRow[]> {
    const end = sql`to_char(i.end_date, 'YYYY-MM-DD')`;
    return rowsOf<InsuranceDueRow>(
      await this.db.execute(
        notSent(sql`
        select i.id, i.provider, ${end} as "endDate", ${recipientCols}, th.t as threshold,
               ${recipientKey(sql`'INSURANCE:' || i.id || ':' || ${end} || ':' || th.t`)} as key
          from insurances i
         cross join lateral (${nearest(sql`i.end_date - ${today}::date`, thresholds)}) th
          join vehicles v on v.id = i.vehicle_id ${recipients}
         where i.reminder_enabled and i.end_date between ${today}::date and ${today}::date + ${Math.max(...thresholds)}::int`),
      ),
    );
  }

  /** As insurancesDue, for renewals (their valid_until). */
  async renewalsDue(today: string, thresholds: readonly number[]): Promise<RenewalDueRow[]> {
    const until = sql`to_char(r.valid_until, 'YYYY-MM-DD')`;
    return rowsOf<RenewalDueRow>(
      await this.db.execute(
        notSent(sql`
        select r.id, r.type, ${until} as "validUntil", ${recipientCols}, th.t as threshold,
               ${recipientKey(sql`'RENEWAL:' || r.id || ':' || ${until} || ':' || th.t`)} as key
          from renewals r
         cross join lateral (${nearest(sql`r.valid_until - ${today}::date`, thresholds)}) th
          join vehicles v on v.id = r.vehicle_id ${recipients}
         where r.reminder_enabled and r.valid_until between ${today}::date and ${today}::date + ${Math.max(...thresholds)}::int`),
      ),
    );
  }

  /** The vehicles' id range, for revisionsDue's batches. */
  async vehicleIds(): Promise<{ first: number; last: number } | undefined> {
    const [row] = rowsOf<{ first: number | null; last: number | null }>(
      await this.db.execute(sql`select min(id) as first, max(id) as last from vehicles`),
    );
    return row?.first == null || row.last == null ? undefined : { first: row.first, last: row.last };
  }

  /**
   * Services due of the vehicles with ids in [from, to): only each vehicle's latest service reminds
   * (older ones were followed by a newer one), when its reminder is on; due 12 months after it (or on
   * its manual date), or now once the odometer passed its km + 15,000. Per person who reaches the
   * vehicle, at the nearest threshold reached, not sent yet. The latest service is one step of the
   * (vehicle_id, date, id) index per vehicle.
   */
  async revisionsDue(
    today: string,
    thresholds: readonly number[],
    from: number,
    to: number,
  ): Promise<RevisionDueRow[]> {
    const manual = sql`coalesce(to_char(r.manual_reminder_date, 'YYYY-MM-DD'), 'auto')`;
    return rowsOf<RevisionDueRow>(
      await this.db.execute(
        notSent(sql`
        select r.id, to_char(r.due, 'YYYY-MM-DD') as "dueDate", (r.due - ${today}::date) as "daysLeft",
               k.due as "kmDue", ${recipientCols}, u.distance_unit as "distanceUnit", th.t as threshold,
               ${recipientKey(sql`'REVISION:' || r.id || ':' || ${manual} || ':' || th.t`)} as key
          from vehicles v
         cross join lateral (
               select r.id, r.km, r.reminder_enabled, r.manual_reminder_date,
                      coalesce(r.manual_reminder_date, (r.date + ${`${REVISION_INTERVAL_MONTHS} months`}::interval)::date) as due
                 from revisions r where r.vehicle_id = v.id order by r.date desc, r.id desc limit 1) r
         cross join lateral (select v.odometer >= r.km + ${REVISION_INTERVAL_KM} as due) k
         -- Due by km or by date is the same "due now": one notification for both.
         cross join lateral (${nearest(sql`case when k.due then 0 else greatest(0, r.due - ${today}::date) end`, thresholds)}) th
          ${recipients}
         where v.id >= ${from} and v.id < ${to} and r.reminder_enabled`),
      ),
    );
  }

  /**
   * In one transaction: records the reminders' keys as sent, and creates the notifications of those
   * not sent before (a run elsewhere may have sent some meanwhile); returns how many. Transactions of
   * runs on other processes take turns (the lock), so their claims never wait on each other crosswise.
   */
  async notifyOnce(list: KeyedNotification[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${JOB_LOCK})`);
      const fresh = new Set(
        rowsOf<{ key: string }>(
          await tx.execute(sql`
            insert into sent_reminders (key)
            select json_array_elements_text(${JSON.stringify(list.map((n) => n.key))}::json)
            on conflict do nothing returning key`),
        ).map((r) => r.key),
      );
      const created = list.filter((n) => fresh.has(n.key)).map(({ key: _key, ...n }) => n);
      await createNotifications(tx, created);
      return created.length;
    });
  }
}

/** The vehicle and recipient columns of a due row (`v` the vehicle, `a` the access, `u` the user). */
const recipientCols = sql`v.id as "vehicleId", v.make, v.model, v.registration_number as "registrationNumber",
  u.id as "userId", u.language as lang`;

/** Everyone who reaches vehicle `v`: `a` their access, `u` the user. */
const recipients = sql`join vehicle_access a on a.vehicle_id = v.id join users u on u.id = a.user_id`;

const recipientKey = (itemKey: SQL) =>
  sql`${itemKey} || case when a.access = 'OWNER' then '' else ':u' || u.id end`;

/** The nearest threshold reached `daysLeft` before the due day (the smallest threshold ≥ it), as `t`. */
const nearest = (daysLeft: SQL, thresholds: readonly number[]) =>
  sql`select min(t) as t from unnest(${pgInts(thresholds)}::int[]) t where ${daysLeft} <= t`;

/** The rows of `query` whose reminder has no sent_reminders row yet, in the items' then recipients' order. */
const notSent = (query: SQL) => sql`
  select * from (${query}) d
   where d.threshold is not null and not exists (select 1 from sent_reminders s where s.key = d.key)
   order by d.id, d."userId"`;
