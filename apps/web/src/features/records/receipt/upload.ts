import type { OcrKind, OcrPreview } from '@evdra/domain';
import { ApiError, refreshSession } from '../../../lib/api';
import { getToken } from '../../../lib/session';
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

/** Thrown (and swallowed by the caller) when the user cancels. */
export class UploadCancelled extends Error {}

function send(
  url: string,
  file: File,
  onProgress: (p: UploadProgress) => void,
  signal: { xhr?: XMLHttpRequest },
) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    signal.xhr = xhr;
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('X-CSRF-Token', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress({ phase: 'uploading', fraction: e.loaded / e.total });
    };
    // Every byte is sent: the server is reading the receipt now.
    xhr.upload.onload = () => onProgress({ phase: 'reading' });
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'Network error'));
    xhr.onabort = () => reject(new UploadCancelled('cancelled'));
    const form = new FormData();
    form.append('file', file);
    onProgress({ phase: 'uploading', fraction: 0 });
    xhr.send(form);
  });
}

/**
 * POST /api/{kind}-ocr/preview/{vehicleId} with XMLHttpRequest, for real upload progress; refreshes
 * the session once on a 401 like every other call. `cancel()` aborts it.
 */
export function uploadReceipt(
  kind: RecordKind,
  vehicleId: number,
  file: File,
  onProgress: (p: UploadProgress) => void,
): ReceiptUpload {
  const url = `/api/${OCR_KIND[kind]}-ocr/preview/${vehicleId}`;
  const signal: { xhr?: XMLHttpRequest; cancelled?: boolean } = {};
  const promise = (async () => {
    let res = await send(url, file, onProgress, signal);
    if (res.status === 401 && !signal.cancelled && (await refreshSession())) {
      res = await send(url, file, onProgress, signal);
    }
    if (res.status >= 200 && res.status < 300) return res.body as OcrPreview;
    const b = res.body as { code?: string; message?: string; details?: unknown } | undefined;
    if (b && typeof b === 'object' && typeof b.code === 'string')
      throw new ApiError(res.status, b.code, b.message ?? `HTTP ${res.status}`);
    throw new ApiError(
      res.status,
      res.status >= 500 ? 'INTERNAL' : `HTTP_${res.status}`,
      `HTTP ${res.status}`,
    );
  })();
  return {
    promise,
    cancel: () => {
      signal.cancelled = true;
      signal.xhr?.abort();
    },
  };
}
