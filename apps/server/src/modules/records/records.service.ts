import {
  type CurrencyCode,
  type DistanceUnitCode,
  type RateSourceCode,
  type RecordPageQuery,
  VEHICLE_LIST_CAP,
  type VehicleRecordsQuery,
} from '@evdra/domain';
import type { Executor } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Principal } from '../auth/auth.service.js';
import { assertWrites } from '../vehicles/vehicles.service.js';
import { priceRecord, type RateLookup, type SentMoney, type StoredMoney } from './record-money.js';
import type { RecordsRepo, RecordTable, RowOf, ValuesOf, VehicleListPage } from './records.repo.js';

export type { RecordTable, RowOf };

/**
 * Throws unless the caller may reach the vehicle: to 'read' (the default) its owner, an editor or a
 * viewer of a share, or an admin; to 'write' its records, the same but a viewer (403). Anyone else
 * gets 404 either way. The rule itself is the vehicle_access view (see VehiclesService).
 */
export type VehicleAccess = (p: Principal, vehicleId: number, mode?: 'read' | 'write') => Promise<unknown>;

/** Who writes a record, as its refusals speak to them (issue 50: a distance in their unit). */
export type Writer = { distanceUnit: DistanceUnitCode };

export type RecordRules<T extends RecordTable> = {
  /** Checks and completes the values before they are written; runs under the vehicle's lock. */
  prepare?: (
    repo: RecordsRepo<T>,
    values: ValuesOf<T>,
    existingId?: number,
    writer?: Writer,
  ) => Promise<ValuesOf<T>>;
  /**
   * Runs after any write to one vehicle's records, under its lock (derived fields): `before` is the
   * record as it was (update, delete), `after` as it is now (create, update). Resolves to the fields
   * it derived on `after`, so the write answers without reading the row again (undefined: read it).
   */
  afterWrite?: (
    repo: RecordsRepo<T>,
    vehicleId: number,
    change: RecordChange<T>,
  ) => Promise<Partial<RowOf<T>> | undefined>;
  /** Runs once such a write is committed (fuel may have raised the vehicle's odometer). */
  afterCommit?: () => void;
  /**
   * prepare, for many new records of one vehicle at once (an import): the values to insert, and the
   * indexes refused with the message a single create would have answered.
   */
  prepareMany?: (
    repo: RecordsRepo<T>,
    vehicleId: number,
    values: ValuesOf<T>[],
  ) => Promise<{ values: ValuesOf<T>[]; refused: Refusal[] }>;
  /**
   * The record's money (issue 50): the key of its amount and its day. The service then fills its
   * currency and exchange rate to the owner's currency (priceRecord) before `prepare`.
   */
  money?: { amount: string; date: (record: Record<string, unknown>) => string };
  /** afterWrite, once for many records just inserted into one vehicle (an import); `ids`: theirs, in order. */
  afterInsertMany?: (
    repo: RecordsRepo<T>,
    vehicleId: number,
    rows: ValuesOf<T>[],
    ids: number[],
  ) => Promise<void>;
};

/** The sort key a cursor (RecordCursor, `<date>_<id>`, already validated) stands for. */
function cursorKey(cursor: string | undefined): { date: string; id: number } | undefined {
  if (!cursor) return undefined;
  const [date = '', id = ''] = cursor.split('_');
  return { date, id: Number(id) };
}

/** A record a bulk write left out: its index in the input, the field and why. */
export type Refusal = { index: number; field: string; message: string };

export type RecordChange<T extends RecordTable> = { before?: RowOf<T>; after?: RowOf<T> };

type Body<T extends RecordTable> = Omit<ValuesOf<T>, 'vehicleId' | 'version'> & {
  vehicleId?: number;
  /** The version the change was based on; a stale one gets 409 with the current record. */
  version?: number;
};

/** Access-checked CRUD for one kind of vehicle record (reads: any relation; writes: not a viewer). */
export class RecordsService<T extends RecordTable> {
  constructor(
    private readonly name: string,
    private readonly repo: RecordsRepo<T>,
    private readonly access: VehicleAccess,
    private readonly rules: RecordRules<T> = {},
    /** Reference rates for records in another currency than their owner's (the fx module's). */
    private readonly rates: RateLookup = async () => undefined,
  ) {}

  /**
   * A page of the records of one vehicle, newest first, as the response's JSON (UTF-8 bytes; `fields`:
   * the keys of the response schema) and the cursor of the next page (null: none follows); 404 when
   * the vehicle is not there or the caller may not see it. Without `limit`, VEHICLE_LIST_CAP records.
   */
  async listJson(
    p: Principal,
    vehicleId: number,
    range: { from?: string; to?: string },
    fields: readonly string[],
    page: VehicleRecordsQuery = {},
  ): Promise<VehicleListPage> {
    const userId = p.role === 'ADMIN' ? null : p.userId;
    const list = await this.repo.listJsonByVehicle(fields, vehicleId, range, userId, {
      limit: page.limit ?? VEHICLE_LIST_CAP,
      after: cursorKey(page.cursor),
    });
    if (list === undefined) throw notFound('Vehicle');
    return list;
  }

  /**
   * The records of all the caller's vehicles (every vehicle for an admin), newest first, a page at a
   * time, as the response's JSON text (`fields`: the keys of the record schema).
   */
  async listAllJson(p: Principal, q: RecordPageQuery, fields: readonly string[]): Promise<string> {
    return this.repo.pageJson(fields, {
      userId: p.role === 'ADMIN' && q.own !== 'true' ? null : p.userId,
      own: q.own === 'true',
      limit: q.limit,
      after: cursorKey(q.cursor),
      from: q.from,
      to: q.to,
    });
  }

  /** The record if the caller may reach its vehicle; 404 otherwise. */
  get(p: Principal, id: number): Promise<RowOf<T>> {
    return this.reach(p, id, 'read');
  }

  /**
   * The record if the caller may `mode` its vehicle: 404 when it is not there or not theirs to
   * see; the access check's own answer (403 for a viewer writing) otherwise.
   */
  private async reach(p: Principal, id: number, mode: 'read' | 'write'): Promise<RowOf<T>> {
    const row = await this.repo.get(id);
    if (!row) throw notFound(this.name);
    await this.access(p, row.vehicleId, mode).catch((err: unknown) => {
      throw err instanceof AppError && err.statusCode !== 404 ? err : notFound(this.name);
    });
    return row;
  }

  async create(p: Principal, body: Body<T> & { vehicleId: number }): Promise<RowOf<T>> {
    // A record with money has the writer's access checked in price's statement, under the lock.
    if (!this.rules.money) await this.access(p, body.vehicleId, 'write');
    return this.repo
      .inVehicleLock(body.vehicleId, async (repo) => {
        const { priced, writer } = await this.price(repo, p, {
          ...body,
          createdById: p.userId,
        } as ValuesOf<T>);
        const values = await this.prepare(repo, priced, undefined, writer);
        const row = await repo.insert(values);
        return this.settle(repo, row.id, row.vehicleId, { after: row });
      })
      .finally(() => this.rules.afterCommit?.());
  }

  async update(p: Principal, id: number, body: Body<T>): Promise<RowOf<T>> {
    const current = await this.reach(p, id, 'write');
    const { version, ...fields } = body;
    const vehicleId = fields.vehicleId ?? current.vehicleId;
    if (vehicleId !== current.vehicleId) await this.access(p, vehicleId, 'write');
    const saved = await this.repo.inVehicleLock(vehicleId, async (repo) => {
      // Checked under the vehicle's lock, which every write to its records takes.
      if (version !== undefined) {
        const fresh = await repo.get(id);
        if (!fresh) throw notFound(this.name);
        if (fresh.version !== version) {
          throw new AppError(
            409,
            'VERSION_CONFLICT',
            `This ${this.name.toLowerCase()} was changed elsewhere. Review the current version.`,
            fresh,
          );
        }
      }
      const { priced, writer } = await this.price(
        repo,
        p,
        { ...fields, vehicleId } as unknown as ValuesOf<T>,
        current,
      );
      const values = await this.prepare(repo, priced, id, writer);
      const after = await repo.update(id, values);
      return this.settle(repo, id, vehicleId, { before: current, after });
    });
    if (vehicleId !== current.vehicleId) await this.afterWriteOf(current.vehicleId, { before: current });
    this.rules.afterCommit?.();
    return saved;
  }

  /** A small change to one record (reminder toggles). */
  async change(
    p: Principal,
    id: number,
    changes: (row: RowOf<T>) => Partial<ValuesOf<T>>,
  ): Promise<RowOf<T>> {
    const current = await this.reach(p, id, 'write');
    const row = await this.repo.update(id, changes(current));
    if (!row) throw notFound(this.name);
    return row;
  }

  async delete(p: Principal, id: number) {
    const current = await this.reach(p, id, 'write');
    await this.repo.inVehicleLock(current.vehicleId, async (repo) => {
      await repo.delete(id);
      await this.rules.afterWrite?.(repo, current.vehicleId, { before: current });
    });
    this.rules.afterCommit?.();
  }

  /**
   * Creates many records of one vehicle on `tx`, in bulk, with the same rules as `create` (derived
   * fields, odometer order, consumption, the vehicle's odometer). The caller has checked access and
   * holds the vehicle's lock (lockVehicle) on `tx`; call `committed()` once `tx` is committed.
   */
  async createMany(
    tx: Executor,
    vehicleId: number,
    bodies: ValuesOf<T>[],
  ): Promise<{ inserted: number; refused: Refusal[] }> {
    if (bodies.length === 0) return { inserted: 0, refused: [] };
    const repo = this.repo.on(tx);
    let values = await this.priceMany(repo, vehicleId, bodies);
    let refused: Refusal[] = [];
    const priced = values;
    if (this.rules.prepareMany) ({ values, refused } = await this.rules.prepareMany(repo, vehicleId, priced));
    else if (this.rules.prepare) {
      const prepare = this.rules.prepare;
      values = [];
      for (const b of priced) values.push(await prepare(repo, b));
    }
    const ids = await repo.insertMany(values);
    if (values.length > 0) await this.rules.afterInsertMany?.(repo, vehicleId, values, ids);
    return { inserted: values.length, refused };
  }

  /** Tells the rules a bulk write (createMany) was committed. */
  committed() {
    this.rules.afterCommit?.();
  }

  /** The values with their currency and exchange rate filled (rules.money); 400 on exchangeRate when none is known. */
  private async price(
    repo: RecordsRepo<T>,
    p: Principal,
    values: ValuesOf<T>,
    current?: RowOf<T>,
  ): Promise<{ priced: ValuesOf<T>; writer?: Writer }> {
    const money = this.rules.money;
    if (!money) return { priced: values };
    const v = values as Record<string, unknown>;
    const currencies = await repo.currencies(
      v.vehicleId as number,
      p.userId,
      p.role === 'ADMIN' ? null : p.userId,
    );
    if (!currencies) throw notFound('Vehicle');
    // The rule of `access(p, vehicleId, 'write')`, the writer's relation read in this round trip.
    assertWrites(currencies.access);
    // A rate the writer sends is to their own currency (record-money.ts).
    return {
      priced: {
        ...values,
        ...(await this.moneyOf(repo, v, currencies.owner, current, undefined, currencies.writer)),
      },
      writer: { distanceUnit: currencies.writerDistanceUnit },
    };
  }

  /** price, for many new records of one vehicle (an import): a rate without a source came from the file. */
  private async priceMany(repo: RecordsRepo<T>, vehicleId: number, bodies: ValuesOf<T>[]) {
    if (!this.rules.money) return bodies;
    const ownerCurrency = await repo.ownerCurrency(vehicleId);
    if (!ownerCurrency) throw notFound('Vehicle');
    const priced: ValuesOf<T>[] = [];
    for (const b of bodies) {
      const v = b as Record<string, unknown>;
      priced.push({ ...b, ...(await this.moneyOf(repo, v, ownerCurrency, undefined, 'IMPORT')) });
    }
    return priced;
  }

  private moneyOf(
    repo: RecordsRepo<T>,
    v: Record<string, unknown>,
    ownerCurrency: CurrencyCode,
    current?: RowOf<T>,
    sentRateSource?: RateSourceCode,
    writerCurrency?: CurrencyCode,
  ): Promise<StoredMoney> {
    const money = this.rules.money as NonNullable<RecordRules<T>['money']>;
    const stored = current as (StoredMoney & Record<string, unknown>) | undefined;
    return priceRecord(
      v as SentMoney,
      {
        ownerCurrency,
        date: money.date(v),
        amount: typeof v[money.amount] === 'number' ? (v[money.amount] as number) : null,
        current: stored && { ...stored, date: money.date(stored) },
        sentRateSource,
        writerCurrency,
      },
      (from, to, date) => this.rates(repo.db, from, to, date),
    );
  }

  private prepare(repo: RecordsRepo<T>, values: ValuesOf<T>, existingId?: number, writer?: Writer) {
    return this.rules.prepare
      ? this.rules.prepare(repo, values, existingId, writer)
      : Promise.resolve(values);
  }

  /** Derived fields, then the row as saved (re-read only when a rule may have changed it). */
  private async settle(
    repo: RecordsRepo<T>,
    id: number,
    vehicleId: number,
    change: RecordChange<T>,
  ): Promise<RowOf<T>> {
    if (!this.rules.afterWrite && change.after) return change.after;
    const derived = await this.rules.afterWrite?.(repo, vehicleId, change);
    if (change.after && derived) return { ...change.after, ...derived };
    const row = await repo.get(id);
    if (!row) throw notFound(this.name);
    return row;
  }

  private async afterWriteOf(vehicleId: number, change: RecordChange<T>) {
    const { afterWrite } = this.rules;
    if (afterWrite) await this.repo.inVehicleLock(vehicleId, (repo) => afterWrite(repo, vehicleId, change));
  }
}
