/** What the offline queue can hold (issue 10): vehicles and the four record kinds. */
export type EntityKind = 'vehicle' | 'fuel' | 'expense' | 'revision' | 'insurance';
export type QueueOp = 'create' | 'update' | 'delete';

export const API_BASE: Record<EntityKind, string> = {
  vehicle: '/api/vehicles',
  fuel: '/api/fuel-consumptions',
  expense: '/api/expenses',
  revision: '/api/revision',
  insurance: '/api/insurance',
};

/**
 * One queued write in `editQueue`. The spec's `{type: 'update', vehicle}` shape is kept (vehicle
 * updates also carry `vehicle`, the full edited vehicle) and extended as issue 10 asks.
 */
export interface QueueEntry {
  type: QueueOp;
  kind: EntityKind;
  /** The request body (without `version`); null for a delete. */
  payload: Record<string, unknown> | null;
  /** The row's id; for a create a negative temporary id the UI shows until the server answers. */
  targetId: number;
  /** Sent as `Idempotency-Key` on creates, so a replay after a lost answer never creates twice. */
  idempotencyKey: string;
  /** The `version` the edit was based on (vehicles); null where the server keeps no version. */
  baseVersion: number | null;
  /** ISO time the user made the change. */
  queuedAt: string;
  /** The user who made it: only their own entries are shown and sent. */
  userId: number;
  /** Spec §3 shape: the edited vehicle, for `kind: 'vehicle'` updates. */
  vehicle?: Record<string, unknown>;
  /** A photo taken offline (vehicle create), uploaded once the row exists. */
  photo?: Blob | null;
  attempts: number;
  /** Epoch ms before which a retry is not tried (backoff after a 5xx or network failure). */
  nextAttemptAt: number;
  /** Set while a tab is sending it: such an entry is never merged into. */
  sending?: boolean;
  lastError?: string;
}

/** A queue entry together with its auto-increment key. */
export interface StoredEntry extends QueueEntry {
  seq: number;
}

/** A write the server refused: a 409 (changed meanwhile) or a 4xx that can never succeed. */
export interface SyncIssue {
  kind: 'conflict' | 'failed';
  userId: number;
  entry: QueueEntry;
  /** For a conflict: the current row as the server answered it. */
  server?: Record<string, unknown>;
  message: string;
  code: string;
  at: string;
}

export interface StoredIssue extends SyncIssue {
  seq: number;
}

/** The marker the UI reads on rows that exist only in the queue so far. */
export interface PendingMarker {
  pendingSync?: boolean;
}

export function isPendingSync(row: unknown): boolean {
  return typeof row === 'object' && row !== null && (row as PendingMarker).pendingSync === true;
}
