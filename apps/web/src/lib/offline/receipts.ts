import { getDb, idbAvailable } from './db';

/**
 * Receipt photos picked without a connection (issue 10: photos taken offline are kept and sent
 * when online). Each is kept in `meta` under `receipt:<id>` with its bytes; once online the record
 * screen of its kind sends it through the OCR preview and opens the confirm dialog, so, as online,
 * nothing is saved before the user confirms (spec §4). Tagged with the user: another user never
 * sees or sends them.
 */
export interface PendingReceipt {
  id: string;
  userId: number;
  /** The OCR kind: 'fuel' | 'expense' | 'revision' | 'insurance'. */
  kind: string;
  vehicleId: number;
  name: string;
  type: string;
  /** The file's bytes (an ArrayBuffer stores everywhere IndexedDB does). */
  bytes: ArrayBuffer;
  savedAt: string;
}

const PREFIX = 'receipt:';

/** A blob's bytes (FileReader where Blob.arrayBuffer is missing, e.g. older WebViews). */
export function bytesOf(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

export async function keepReceipt(
  userId: number,
  kind: string,
  vehicleId: number,
  file: Blob & { name?: string },
): Promise<PendingReceipt> {
  const receipt: PendingReceipt = {
    id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
    userId,
    kind,
    vehicleId,
    name: file.name || 'receipt',
    type: file.type || 'application/octet-stream',
    bytes: await bytesOf(file),
    savedAt: new Date().toISOString(),
  };
  const db = await getDb();
  await db.put('meta', receipt, `${PREFIX}${receipt.id}`);
  return receipt;
}

/** The user's kept receipts of `kind`, oldest first. */
export async function listReceipts(userId: number, kind: string): Promise<PendingReceipt[]> {
  if (!idbAvailable()) return [];
  try {
    const db = await getDb();
    const all = (await db.getAll('meta', IDBKeyRange.bound(PREFIX, `${PREFIX}\uffff`))) as PendingReceipt[];
    return all
      .filter((r) => r.userId === userId && r.kind === kind)
      .sort((a, b) => (a.savedAt < b.savedAt ? -1 : a.savedAt > b.savedAt ? 1 : 0));
  } catch {
    return [];
  }
}

export async function dropReceipt(id: string): Promise<void> {
  const db = await getDb();
  await db.delete('meta', `${PREFIX}${id}`);
}

/** The kept receipt as a file again, for the upload. */
export function receiptFile(r: PendingReceipt): File {
  return new File([r.bytes], r.name, { type: r.type });
}
