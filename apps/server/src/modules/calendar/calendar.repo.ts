import type { Language, RenewalType } from '@evdra/domain';
import { REVISION_INTERVAL_MONTHS } from '@evdra/domain';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { users } from '../../db/schema.js';

type VehicleCols = { vehicleId: number; make: string; model: string; registrationNumber: string };
export type DueItem = VehicleCols &
  (
    | { kind: 'insurance'; id: number; date: string; provider: string; renewalType: null }
    | { kind: 'revision'; id: number; date: string; provider: null; renewalType: null }
    | { kind: 'renewal'; id: number; date: string; provider: null; renewalType: RenewalType }
  );

/** Calendar feed tokens and the due dates a feed lists. */
export class CalendarRepo {
  constructor(private readonly db: Executor) {}

  async userByToken(token: string): Promise<{ id: number; language: Language } | undefined> {
    const [row] = await this.db
      .select({ id: users.id, language: users.language })
      .from(users)
      .where(eq(users.calendarToken, token));
    return row;
  }

  async tokenOf(userId: number): Promise<string | null> {
    const [row] = await this.db
      .select({ token: users.calendarToken })
      .from(users)
      .where(eq(users.id, userId));
    return row?.token ?? null;
  }

  /** Sets the token unless one exists (`replace`: always); answers the token now in place. */
  async setToken(userId: number, token: string, replace: boolean): Promise<string> {
    const [row] = await this.db
      .update(users)
      .set({ calendarToken: replace ? token : sql`coalesce(${users.calendarToken}, ${token})` })
      .where(eq(users.id, userId))
      .returning({ token: users.calendarToken });
    if (!row?.token) throw new Error('user gone');
    return row.token;
  }

  /**
   * The due dates of the vehicles the user reaches (own and shared): every insurance's end date, each vehicle's next service
   * (after its latest one: the manual date, else the rule's date) and every renewal's expiry.
   */
  async dueItems(userId: number): Promise<DueItem[]> {
    return rowsOf<DueItem>(
      await this.db.execute(sql`
      with v as (select v.id, v.make, v.model, v.registration_number from vehicles v
                  join vehicle_access a on a.vehicle_id = v.id where a.user_id = ${userId})
      select 'insurance' as kind, i.id, to_char(i.end_date, 'YYYY-MM-DD') as date, i.provider, null as "renewalType",
             v.id as "vehicleId", v.make, v.model, v.registration_number as "registrationNumber"
        from insurances i join v on v.id = i.vehicle_id
      union all
      select 'revision', r.id,
             to_char(coalesce(r.manual_reminder_date, (r.date + ${`${REVISION_INTERVAL_MONTHS} months`}::interval)::date), 'YYYY-MM-DD'),
             null, null, v.id, v.make, v.model, v.registration_number
        from (select distinct on (vehicle_id) * from revisions where vehicle_id in (select id from v)
               order by vehicle_id, date desc, id desc) r join v on v.id = r.vehicle_id
      union all
      select 'renewal', n.id, to_char(n.valid_until, 'YYYY-MM-DD'), null, n.type, v.id, v.make, v.model, v.registration_number
        from renewals n join v on v.id = n.vehicle_id
      order by 3, 1, 2`),
    );
  }
}
