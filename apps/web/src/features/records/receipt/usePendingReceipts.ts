import type { OcrPreview } from '@evdra/domain';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api';
import { dropReceipt, keepReceipt, listReceipts, receiptFile } from '../../../lib/offline/receipts';
import { useStoredUser } from '../../../lib/session';
import type { RecordKind } from '../api';
import { OCR_KIND, uploadReceipt } from './upload';

/** One tab at a time reads the kept receipts: two tabs never open two previews of one receipt. */
async function alone(fn: () => Promise<void>): Promise<void> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks?.request) {
    await locks.request('evdra-receipts', { ifAvailable: true }, async (lock) => {
      if (lock) await fn();
    });
  } else await fn();
}

/**
 * Receipts picked offline for this record kind: `keep` saves one; whenever the device is online
 * and `ready` (no dialog open), the oldest is sent through the OCR preview and `onPreview` opens
 * the confirm dialog for it. Still no connection: it stays. Refused (e.g. unreadable): dropped and
 * `onFailure` tells the user.
 */
export function usePendingReceipts(
  kind: RecordKind,
  ready: boolean,
  onPreview: (preview: OcrPreview, vehicleId: number) => void,
  onFailure: (err: unknown) => void,
) {
  const user = useStoredUser();
  const userId = user?.id;
  const ocrKind = OCR_KIND[kind];
  const [count, setCount] = useState(0);
  const [reading, setReading] = useState(false);
  const busy = useRef(false);
  const handlers = useRef({ onPreview, onFailure });
  handlers.current = { onPreview, onFailure };

  const refresh = useCallback(async () => {
    setCount(userId === undefined ? 0 : (await listReceipts(userId, ocrKind)).length);
  }, [userId, ocrKind]);

  const sendNext = useCallback(async () => {
    if (busy.current || userId === undefined || !navigator.onLine) return;
    busy.current = true;
    try {
      await alone(async () => {
        const [first] = await listReceipts(userId, ocrKind);
        if (!first) return;
        setReading(true);
        try {
          const preview = await uploadReceipt(kind, first.vehicleId, receiptFile(first), () => undefined)
            .promise;
          await dropReceipt(first.id);
          handlers.current.onPreview(preview, first.vehicleId);
        } catch (err) {
          if (err instanceof ApiError && err.status === 0) return;
          await dropReceipt(first.id);
          handlers.current.onFailure(err);
        }
      });
    } finally {
      busy.current = false;
      setReading(false);
      await refresh();
    }
  }, [userId, ocrKind, kind, refresh]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    if (!ready || count === 0) return;
    void sendNext();
    const online = () => void sendNext();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [ready, count, sendNext]);

  const keep = useCallback(
    async (vehicleId: number, file: File) => {
      if (userId === undefined) return;
      await keepReceipt(userId, ocrKind, vehicleId, file);
      await refresh();
    },
    [userId, ocrKind, refresh],
  );

  return { count, reading, keep };
}
