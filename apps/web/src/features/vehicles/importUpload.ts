import type { ImportMapping, ImportPreview, ImportResult } from '@evdra/domain';
import { ApiError, refreshSession } from '../../lib/api';
import { getToken } from '../../lib/session';

/** Upload progress of an import file: a fraction while sending, then the server works. */
export type ImportProgress = { phase: 'uploading'; fraction: number } | { phase: 'working' };

function send(
  url: string,
  file: File,
  mapping: ImportMapping | undefined,
  headers: Record<string, string>,
  onProgress: (p: ImportProgress) => void,
) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('X-CSRF-Token', token);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress({ phase: 'uploading', fraction: e.loaded / e.total });
    };
    xhr.upload.onload = () => onProgress({ phase: 'working' });
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
    const form = new FormData();
    if (mapping) form.append('mapping', JSON.stringify(mapping));
    form.append('file', file);
    onProgress({ phase: 'uploading', fraction: 0 });
    xhr.send(form);
  });
}

/**
 * POST /api/import/{preview|confirm}/{vehicleId} with XMLHttpRequest, for real upload progress on
 * large files; refreshes the session once on a 401 like every other call.
 */
export async function postImport<S extends 'preview' | 'confirm'>(
  step: S,
  vehicleId: number,
  file: File,
  mapping: ImportMapping | undefined,
  onProgress: (p: ImportProgress) => void,
  headers: Record<string, string> = {},
): Promise<S extends 'preview' ? ImportPreview : ImportResult> {
  const url = `/api/import/${step}/${vehicleId}`;
  let res = await send(url, file, mapping, headers, onProgress);
  if (res.status === 401 && (await refreshSession()))
    res = await send(url, file, mapping, headers, onProgress);
  if (res.status >= 200 && res.status < 300) return res.body as never;
  const b = res.body as { code?: string; message?: string } | undefined;
  if (b && typeof b === 'object' && typeof b.code === 'string')
    throw new ApiError(res.status, b.code, b.message ?? `HTTP ${res.status}`);
  throw new ApiError(res.status, 'INTERNAL', `HTTP ${res.status}`);
}
