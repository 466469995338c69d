import type { ShareCreateBody, ShareRole, VehicleShare } from '@evdra/domain';
import { AppError, fieldError, notFound, UniqueViolation } from '../../lib/errors.js';
import type { Principal } from '../auth/auth.service.js';
import { accessEndedText, leftText, sharedText } from './share-texts.js';
import type { ShareRow, SharingRepo } from './sharing.repo.js';

/** What the sharing feature needs to know of a vehicle (VehiclesService.visible / owned). */
type Car = { id: number; make: string; model: string; year: number; ownerId: number; ownerUsername: string };
export type VehicleChecks = {
  /** Read access: owner, editor, viewer, admin; 404 otherwise. */
  visible: (p: Principal, id: number) => Promise<Car>;
  /** The vehicle itself: owner or admin; 403 editor/viewer; 404 otherwise. */
  owned: (p: Principal, id: number) => Promise<Car>;
};

export const presentShare = (s: ShareRow): VehicleShare => ({
  vehicleId: s.vehicleId,
  userId: s.userId,
  username: s.username,
  role: s.role,
  createdAt: s.createdAt.toISOString(),
});

/**
 * Sharing a vehicle with the people who drive it. The owner (or an admin) adds, changes and removes
 * shares; a grantee sees only their own share and may leave. Every change and its notification are
 * one transaction.
 */
export class SharingService {
  constructor(
    private readonly repo: SharingRepo,
    private readonly vehicles: VehicleChecks,
    /** Called after a committed share change (vehicle lists show shared vehicles). */
    private readonly changed: () => void = () => {},
  ) {}

  /** The owner and admins: every share; a grantee: their own; anyone else: 404. */
  async list(p: Principal, vehicleId: number): Promise<ShareRow[]> {
    const v = await this.vehicles.visible(p, vehicleId);
    const manages = p.role === 'ADMIN' || v.ownerId === p.userId;
    return this.repo.list(vehicleId, manages ? undefined : p.userId);
  }

  async share(p: Principal, vehicleId: number, body: ShareCreateBody): Promise<ShareRow> {
    const v = await this.vehicles.owned(p, vehicleId);
    const grantee = await this.repo.findUser(body.username);
    if (!grantee)
      throw fieldError('NOT_FOUND', 404, 'username', 'No user has this username or email address.');
    if (grantee.id === v.ownerId)
      throw fieldError(
        'VALIDATION_FAILED',
        400,
        'username',
        grantee.id === p.userId ? 'You cannot share a vehicle with yourself.' : 'This user owns the vehicle.',
      );
    const row = await this.repo
      .transaction(async (tx) => {
        if (await tx.one(vehicleId, grantee.id)) throw alreadyShared(grantee.username);
        await tx.insert(vehicleId, grantee.id, body.role);
        await tx.notify({
          userId: grantee.id,
          vehicleId,
          type: 'VEHICLE_SHARED',
          ...sharedText(grantee.language, v.ownerUsername, v, body.role),
        });
        return tx.one(vehicleId, grantee.id);
      })
      .catch((err: unknown) => {
        throw err instanceof UniqueViolation ? alreadyShared(grantee.username) : err;
      });
    this.changed();
    if (!row) throw notFound('Share');
    return row;
  }

  async setRole(p: Principal, vehicleId: number, userId: number, role: ShareRole): Promise<ShareRow> {
    const v = await this.vehicles.owned(p, vehicleId);
    const row = await this.repo.transaction(async (tx) => {
      const current = await tx.one(vehicleId, userId);
      if (!current) throw notFound('Share');
      if (current.role === role) return current;
      await tx.setRole(vehicleId, userId, role);
      const grantee = await tx.person(userId);
      if (grantee)
        await tx.notify({
          userId,
          vehicleId,
          type: 'VEHICLE_SHARED',
          ...sharedText(grantee.language, v.ownerUsername, v, role, true),
        });
      return tx.one(vehicleId, userId);
    });
    this.changed();
    if (!row) throw notFound('Share');
    return row;
  }

  /**
   * The owner (or an admin) revokes a share, or the grantee leaves: the grantee is told of a revoke,
   * the owner of a leave (a household should not find out from a missing fill-up).
   */
  async remove(p: Principal, vehicleId: number, userId: number): Promise<void> {
    const leaving = userId === p.userId;
    const v = leaving ? await this.vehicles.visible(p, vehicleId) : await this.vehicles.owned(p, vehicleId);
    await this.repo.transaction(async (tx) => {
      const grantee = await tx.person(userId);
      if (!(await tx.delete(vehicleId, userId)) || !grantee) throw notFound('Share');
      if (!leaving)
        await tx.notify({
          userId,
          vehicleId: null,
          type: 'VEHICLE_ACCESS_ENDED',
          ...accessEndedText(grantee.language, v, 'REVOKED'),
        });
      const owner = leaving ? await tx.person(v.ownerId) : null;
      if (owner)
        await tx.notify({
          userId: v.ownerId,
          vehicleId,
          type: 'VEHICLE_SHARED',
          ...leftText(owner.language, grantee.username, v),
        });
    });
    this.changed();
  }
}

const alreadyShared = (username: string) =>
  new AppError(
    409,
    'CONFLICT',
    `This vehicle is already shared with ${username}. Change their role instead.`,
  );
