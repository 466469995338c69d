import { ApiError, refreshSession } from './api';
import { getToken } from './session';

/** Thrown (and swallowed by the caller) when the user cancels an upload. */
export class UploadCancelled extends Error {}

export type UploadHandlers = {
  /** The fraction of the file sent so far. */
  onProgress: (fraction: number) => void;
  /** Every byte is sent: the server is working on it now. */
  onSent: () => void;
  headers?: Record<string, string>;
  /** Holds the request while it runs, so the caller can abort it; `cancelled` stops the retry. */
  signal?: { xhr?: XMLHttpRequest; cancelled?: boolean };
};

function send(url: string, form: FormData, h: UploadHandlers) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    if (h.signal) h.signal.xhr = xhr;
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('X-CSRF-Token', token);
    for (const [k, v] of Object.entries(h.headers ?? {})) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) h.onProgress(e.loaded / e.total);
    };
    xhr.upload.onload = () => h.onSent();
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
    h.onProgress(0);
    xhr.send(form);
  });
}

/**
 * POSTs a multipart form with XMLHttpRequest (fetch has no upload progress), refreshing the session
 * once on a 401 like every other call; answers the JSON body, or throws an ApiError with the server's
 * code. `form` is called again for the retry.
 */
export async function postWithProgress<T>(url: string, form: () => FormData, h: UploadHandlers): Promise<T> {
  let res = await send(url, form(), h);
  if (res.status === 401 && !h.signal?.cancelled && (await refreshSession()))
    res = await send(url, form(), h);
  if (res.status >= 200 && res.status < 300) return res.body as T;
  const b = res.body as { code?: string; message?: string } | undefined;
  if (b && typeof b === 'object' && typeof b.code === 'string')
    throw new ApiError(res.status, b.code, b.message ?? `HTTP ${res.status}`);
  throw new ApiError(res.status, res.status >= 500 ? 'INTERNAL' : `HTTP_${res.status}`, `HTTP ${res.status}`);
}
