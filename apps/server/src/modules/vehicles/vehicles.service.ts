import { randomBytes } from 'node:crypto';
import {
  type FuelType,
  secondaryFuelProblem,
  VEHICLES_CAP,
  type Vehicle,
  type VehicleInput,
  type VehicleUpdateBody,
} from '@evdra/domain';
import type { AiReasons } from '../../ai/reasons.js';
import type { Access } from '../../db/access.js';
import type { Executor } from '../../db/client.js';
import { type FileStore, openWhenAllowed, type StoredFile } from '../../files/file-store.js';
import { normalizePhoto } from '../../files/images.js';
import { AppError, fieldError, forbidden, notFound, UniqueViolation } from '../../lib/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { VehicleRow, VehiclesRepo } from './vehicles.repo.js';

export const photoUrl = (fileId: string) => `/api/files/${fileId}`;

export function presentVehicle(v: VehicleRow): Vehicle {
  return {
    id: v.id,
    make: v.make,
    model: v.model,
    year: v.year,
    fuelType: v.fuelType,
    secondaryFuelType: v.secondaryFuelType,
    tankCapacity: v.tankCapacity,
    secondaryTankCapacity: v.secondaryTankCapacity,
    registrationNumber: v.registrationNumber,
    vin: v.vin,
    engineSize: v.engineSize,
    odometer: v.odometer,
    aiEvaluationConsent: v.aiEvaluationConsent,
    aiScore: v.aiScore,
    aiScoreReason: v.aiScoreReason,
    photoUrl: v.photoId ? photoUrl(v.photoId) : null,
    ownerId: v.ownerId,
    ownerUsername: v.ownerUsername,
    access: v.access ?? 'OWNER',
    ownerCurrency: v.ownerCurrency,
    version: v.version,
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
  };
}

/** A photo change that comes with an update: new bytes, or removal. */
export type PhotoChange = { bytes: Buffer } | 'remove' | undefined;

/**
 * Runs inside the transaction that deletes a vehicle, before the delete: ends its shares (telling
 * each grantee). Given by the app, which composes the sharing feature.
 */
export type BeforeVehicleDelete = (tx: Executor, vehicleId: number) => Promise<void>;

type Fuels = { fuelType: FuelType; secondaryFuelType: FuelType | null };
/**
 * Runs inside the transaction of an update that changes a vehicle's fuels, before the write: may
 * refuse it (a fuel with fills taken away) and recomputes consumption (the fuel module's, given by the app).
 */
export type FuelsChange = (tx: Executor, vehicleId: number, before: Fuels, after: Fuels) => Promise<void>;

/** Thrown inside an update's transaction to roll it back when the row was stale. */
const STALE = Symbol('stale');

/**
 * Vehicles and their photos. A USER reaches the vehicles they own or that are shared with them (the
 * vehicle_access view: the one access rule); an ADMIN reaches all with the owner's rights.
 *   visible(p, id)  read access: owner, editor, viewer, admin; 404 for anyone else.
 *   writable(p, id) writing the vehicle's records: owner, editor, admin; 403 viewer; 404 anyone else.
 *   owned(p, id)    the vehicle itself (edit, delete, photo, share, sell): owner or admin; 403 for
 *                   an editor or viewer; 404 anyone else.
 */
export class VehiclesService {
  constructor(
    private readonly repo: VehiclesRepo,
    private readonly store: FileStore,
    /** Called after every committed change to a vehicle. */
    private readonly changed: () => void = () => {},
    private readonly beforeDelete: BeforeVehicleDelete = async () => {},
    private readonly fuelsChange: FuelsChange = async () => {},
    /** Writes a vehicle's AI reason for its reader (issue 50); without it the stored text is answered. */
    private readonly reasons?: Pick<AiReasons, 'forReader' | 'with'>,
  ) {}

  /**
   * Newest first: own and shared vehicles (`own`: only own ones); an admin's: every vehicle. At most
   * `limit` (without it VEHICLES_CAP) after the id `cursor`; `next`: the next page's cursor.
   */
  async list(
    p: Principal,
    q: { own?: boolean; limit?: number; cursor?: string } = {},
  ): Promise<{ rows: VehicleRow[]; next?: string }> {
    const limit = q.limit ?? VEHICLES_CAP;
    const rows = await this.repo.list(p.role === 'ADMIN' && !q.own ? undefined : p.userId, q.own ?? false, {
      fetch: limit + 1,
      before: q.cursor ? Number(q.cursor) : undefined,
    });
    const more = rows.length > limit;
    if (more) rows.length = limit;
    // Each AI reason as this reader reads it (one read of their settings for the page, if any has a basis).
    const shown = await this.readable(p, rows);
    return more ? { rows: shown, next: String(rows[limit - 1]?.id) } : { rows: shown };
  }

  /** A vehicle as the API answers it to `p`: its AI reason in their language, currency and units. */
  async presented(p: Principal, v: VehicleRow): Promise<Vehicle> {
    const [shown = v] = await this.readable(p, [v]);
    return presentVehicle(shown);
  }

  private readable(p: Principal, rows: VehicleRow[]): Promise<VehicleRow[]> {
    return this.reasons ? this.reasons.forReader(p.userId, rows) : Promise.resolve(rows);
  }

  /**
   * The vehicle if the caller may see it, with `access` (their relation; 'OWNER' for an admin);
   * 404 otherwise (never reveals another user's ids).
   */
  async visible(p: Principal, id: number): Promise<VehicleRow> {
    const v = await this.repo.get(id, p.role === 'ADMIN' ? null : p.userId);
    if (!v || v.access === null) throw notFound('Vehicle');
    return v;
  }

  /**
   * As visible, as the API's Vehicle JSON text (GET /api/vehicles/{id}: the database writes it), its
   * AI reason as the caller reads it: a built-in evaluation's written again for them (issue 50).
   */
  async visibleJson(p: Principal, id: number): Promise<string> {
    const row = await this.repo.getJson(id, p.role === 'ADMIN' ? null : p.userId, p.userId);
    if (row === undefined) throw notFound('Vehicle');
    if (row.basis == null || !row.reader || !this.reasons) return row.json;
    const vehicle = JSON.parse(row.json) as Vehicle;
    const [shown] = await this.reasons.with(row.reader, [
      { aiScoreReason: vehicle.aiScoreReason, aiScoreBasis: row.basis },
    ]);
    if (!shown || shown.aiScoreReason === vehicle.aiScoreReason) return row.json;
    // Parsed and written again only for such a vehicle: the same keys, in the same order.
    return JSON.stringify({ ...vehicle, aiScoreReason: shown.aiScoreReason });
  }

  /** The vehicle if the caller may change it itself: its owner or an admin (403 editor/viewer, 404 others). */
  async owned(p: Principal, id: number): Promise<VehicleRow> {
    const v = await this.visible(p, id);
    if (p.role !== 'ADMIN' && v.ownerId !== p.userId) throw forbidden('Only the owner can do this.');
    return v;
  }

  /** The vehicle if the caller may write its records: not a viewer (403); 404 for anyone else. */
  async writable(p: Principal, id: number): Promise<VehicleRow> {
    const v = await this.visible(p, id);
    assertWrites(v.access);
    return v;
  }

  async create(p: Principal, input: VehicleInput): Promise<VehicleRow> {
    await this.assertRegistrationFree(p.userId, input.registrationNumber);
    const id = await this.write(() => this.repo.insert(p.userId, input));
    this.changed();
    return this.reload(id, p);
  }

  async update(p: Principal, id: number, body: VehicleUpdateBody, photo?: PhotoChange): Promise<Vehicle> {
    const current = await this.owned(p, id);
    if (body.version !== current.version) throw staleVersion(await this.presented(p, current));
    const { version, photoUrl: _ignored, ...input } = body;
    // An absent second fuel keeps the stored one: the pair is checked as it will be.
    const fuels: Fuels = {
      fuelType: input.fuelType,
      secondaryFuelType:
        input.secondaryFuelType === undefined ? current.secondaryFuelType : input.secondaryFuelType,
    };
    const problem = secondaryFuelProblem(fuels.fuelType, fuels.secondaryFuelType);
    if (problem) throw fieldError('VALIDATION_FAILED', 400, 'secondaryFuelType', problem);
    const secondTank =
      input.secondaryTankCapacity === undefined ? current.secondaryTankCapacity : input.secondaryTankCapacity;
    if (fuels.secondaryFuelType === null && secondTank !== null && input.secondaryTankCapacity !== undefined)
      throw fieldError(
        'VALIDATION_FAILED',
        400,
        'secondaryTankCapacity',
        'A second tank needs a second fuel.',
      );
    // Without a second fuel, no second tank.
    const tank =
      fuels.secondaryFuelType === null && current.secondaryTankCapacity !== null
        ? { secondaryTankCapacity: null }
        : {};
    const fuelsChanged =
      fuels.fuelType !== current.fuelType || fuels.secondaryFuelType !== current.secondaryFuelType;
    await this.assertRegistrationFree(current.ownerId, input.registrationNumber, id);
    const newPhotoId = photo && photo !== 'remove' ? await this.storePhoto(id, photo.bytes) : undefined;
    const photoId = newPhotoId ?? (photo === 'remove' ? null : undefined);
    const changes = { ...input, ...tank, photoId };
    const applied = await this.write(() =>
      fuelsChanged
        ? this.repo
            .transaction(async (tx, repo) => {
              await this.fuelsChange(tx, id, current, fuels);
              if (!(await repo.update(id, version, changes))) throw STALE;
              return true;
            })
            .catch((err: unknown) => {
              if (err === STALE) return false;
              throw err;
            })
        : this.repo.update(id, version, changes),
    );
    this.changed();
    if (!applied) {
      if (newPhotoId) await this.deleteFile(newPhotoId);
      throw staleVersion(await this.presented(p, await this.reload(id)));
    }
    if (photoId !== undefined && current.photoId) await this.deleteFile(current.photoId);
    return this.presented(p, await this.reload(id, p));
  }

  /** Replaces the vehicle's photo; answers the new photo's URL. */
  async uploadPhoto(p: Principal, id: number, bytes: Buffer): Promise<string> {
    const current = await this.owned(p, id);
    const fileId = await this.storePhoto(id, bytes);
    // A concurrent edit may bump the version; the photo still belongs on the newest row.
    let row = current;
    while (!(await this.repo.update(id, row.version, { photoId: fileId }))) row = await this.reload(id);
    this.changed();
    if (row.photoId) await this.deleteFile(row.photoId);
    return photoUrl(fileId);
  }

  /** Deletes the vehicle, its records (cascade) and its files; its shares end (grantees are told). */
  async delete(p: Principal, id: number) {
    await this.owned(p, id);
    const fileIds = await this.repo.fileIdsOf(id);
    await this.repo.transaction(async (tx, repo) => {
      await this.beforeDelete(tx, id);
      await repo.delete(id);
    });
    this.changed();
    await Promise.all(fileIds.map((f) => this.deleteFile(f)));
  }

  /**
   * Raises the odometer to `km` when higher (a fuel reading), inside `tx`: the transaction that wrote
   * the reading. No `changed()` here: the caller reports its own commit.
   */
  raiseOdometer(vehicleId: number, km: number, tx: Executor): Promise<void> {
    return this.repo.raiseOdometer(vehicleId, km, tx);
  }

  /** Type of a stored photo, only for those who may see its vehicle (404 otherwise). */
  async photoType(p: Principal, fileId: string): Promise<string> {
    const type = await this.repo.visibleFileType(fileId, p.role === 'ADMIN' ? null : p.userId);
    if (!type) throw notFound('File');
    return type;
  }

  /** A stored photo, streamed, only for those who may see its vehicle. */
  async photo(p: Principal, fileId: string): Promise<{ file: StoredFile; contentType: string }> {
    const opened = await openWhenAllowed(this.store, fileId, this.photoType(p, fileId));
    if (!opened) throw notFound('File');
    return opened;
  }

  private async storePhoto(vehicleId: number, bytes: Buffer): Promise<string> {
    const jpeg = await normalizePhoto(bytes);
    const id = randomBytes(16).toString('base64url');
    await this.store.put(id, jpeg);
    await this.repo.addFile({ id, vehicleId, contentType: 'image/jpeg', size: jpeg.length });
    return id;
  }

  private async deleteFile(fileId: string) {
    await this.repo.deleteFileRow(fileId);
    await this.store.delete(fileId);
  }

  /** The vehicle as it is now, with the access of `p` (default 'OWNER'). */
  private async reload(id: number, p?: Principal): Promise<VehicleRow> {
    const v = await this.repo.get(id, p && p.role !== 'ADMIN' ? p.userId : null);
    if (!v) throw notFound('Vehicle');
    return { ...v, access: v.access ?? 'OWNER' };
  }

  private async assertRegistrationFree(ownerId: number, registrationNumber: string, exceptId?: number) {
    if (await this.repo.registrationTaken(ownerId, registrationNumber, exceptId))
      throw duplicateRegistration();
  }

  /** Maps a unique-index race on the registration number to the same 409 as the pre-check. */
  private async write<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof UniqueViolation) throw duplicateRegistration();
      throw err;
    }
  }
}

/** The answer to a viewer's write (the web shows it, the offline queue keeps the entry with it). */
export const VIEW_ONLY = 'You can view this vehicle but not change it.';

/** The rule of a write to a vehicle's records, from the writer's relation to it: none 404 (as for no vehicle), a viewer 403. */
export function assertWrites(access: Access | null | undefined): void {
  if (!access) throw notFound('Vehicle');
  if (access === 'VIEWER') throw forbidden(VIEW_ONLY);
}

const duplicateRegistration = () =>
  fieldError(
    'DUPLICATE_REGISTRATION',
    409,
    'registrationNumber',
    'You already have a vehicle with this registration number.',
  );

const staleVersion = (current: Vehicle) =>
  new AppError(
    409,
    'VERSION_CONFLICT',
    'This vehicle was changed elsewhere. Review the current version.',
    current,
  );
