import type { EntityKind, QueueEntry } from './types';

type Row = { id: number } & Record<string, unknown>;

/** Fields the server computes, so a row created offline has every field its card reads. */
const DEFAULTS: Record<EntityKind, Record<string, unknown>> = {
  vehicle: {
    aiEvaluationConsent: false,
    aiScore: null,
    aiScoreReason: null,
    photoUrl: null,
    version: 0,
  },
  fuel: {
    pricePerLiter: null,
    odometer: null,
    consumptionPer100km: null,
    fullTank: true,
    missedPrevious: false,
  },
  expense: { description: '' },
  revision: { description: '', manualReminderDate: null, reminderEnabled: true },
  insurance: { reminderEnabled: true },
};

export interface OverlayContext {
  userId: number;
  username: string;
  /** Only records of this vehicle (record lists); undefined for the vehicle list. */
  vehicleId?: number;
}

/**
 * The rows as the user will see them once the queue is sent: queued creates added (newest first),
 * queued edits applied, queued deletes removed; every row touched carries `pendingSync: true`.
 */
export function applyQueue<T extends { id: number }>(
  rows: T[],
  entries: QueueEntry[],
  kind: EntityKind,
  ctx: OverlayContext,
): T[] {
  let out: Row[] = rows.map((r) => ({ ...r }) as unknown as Row);
  for (const e of entries) {
    if (e.kind !== kind || e.userId !== ctx.userId) continue;
    const forVehicle = (p: Record<string, unknown> | null) =>
      kind === 'vehicle' || ctx.vehicleId === undefined || p?.vehicleId === ctx.vehicleId;
    if (e.type === 'create') {
      if (!forVehicle(e.payload) || out.some((r) => r.id === e.targetId)) continue;
      const now = e.queuedAt;
      const row: Row = {
        ...DEFAULTS[kind],
        ...(kind === 'vehicle' ? { ownerId: ctx.userId, ownerUsername: ctx.username } : {}),
        createdAt: now,
        updatedAt: now,
        ...e.payload,
        id: e.targetId,
        pendingSync: true,
      };
      out = [row, ...out];
    } else if (e.type === 'update') {
      out = out.map((r) => (r.id === e.targetId ? { ...r, ...e.payload, pendingSync: true } : r));
    } else {
      out = out.filter((r) => r.id !== e.targetId);
    }
  }
  return out as unknown as T[];
}

/** One row with the queue applied; null when it is deleted in the queue. */
export function applyQueueToOne<T extends { id: number }>(
  row: T | undefined,
  id: number,
  entries: QueueEntry[],
  kind: EntityKind,
  ctx: OverlayContext,
): T | null {
  const [one] = applyQueue(row ? [row] : [], entries, kind, { ...ctx, vehicleId: undefined }).filter(
    (r) => r.id === id,
  );
  return one ?? null;
}
