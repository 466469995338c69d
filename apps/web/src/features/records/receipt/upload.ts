import type { OcrKind, OcrPreview } from '@evdra/domain';
import { postWithProgress, UploadCancelled } from '../../../lib/upload';
import type { RecordKind } from '../api';

export const OCR_KIND: Record<RecordKind, OcrKind> = {
  insurance: 'insurance',
  expenses: 'expense',
  fuel: 'fuel',
  revision: 'revision',
};

export type UploadProgress = { phase: 'uploading'; fraction: number } | { phase: 'reading' };

export interface ReceiptUpload {
  promise: Promise<OcrPreview>;
  cancel: () => void;
}

export { UploadCancelled };

/**
 * POST /api/{kind}-ocr/preview/{vehicleId} with real upload progress; `cancel()` aborts it.
 */
export function uploadReceipt(
  kind: RecordKind,
  vehicleId: number,
  file: File,
  onProgress: (p: UploadProgress) => void,
): ReceiptUpload {
  const signal: { xhr?: XMLHttpRequest; cancelled?: boolean } = {};
  const form = () => {
    const f = new FormData();
    f.append('file', file);
    return f;
  };
  const promise = postWithProgress<OcrPreview>(`/api/${OCR_KIND[kind]}-ocr/preview/${vehicleId}`, form, {
    onProgress: (fraction) => onProgress({ phase: 'uploading', fraction }),
    // Every byte is sent: the server is reading the receipt now.
    onSent: () => onProgress({ phase: 'reading' }),
    signal,
  });
  return {
    promise,
    cancel: () => {
      signal.cancelled = true;
      signal.xhr?.abort();
    },
  };
}
