import type { ImportMapping, ImportPreview, ImportResult } from '@evdra/domain';
import { postWithProgress } from '../../lib/upload';

/** Upload progress of an import file: a fraction while sending, then the server works. */
export type ImportProgress = { phase: 'uploading'; fraction: number } | { phase: 'working' };

/** POST /api/import/{preview|confirm}/{vehicleId}, with real upload progress on large files. */
export function postImport<S extends 'preview' | 'confirm'>(
  step: S,
  vehicleId: number,
  file: File,
  mapping: ImportMapping | undefined,
  onProgress: (p: ImportProgress) => void,
  headers: Record<string, string> = {},
): Promise<S extends 'preview' ? ImportPreview : ImportResult> {
  const form = () => {
    const f = new FormData();
    if (mapping) f.append('mapping', JSON.stringify(mapping));
    f.append('file', file);
    return f;
  };
  return postWithProgress(`/api/import/${step}/${vehicleId}`, form, {
    onProgress: (fraction) => onProgress({ phase: 'uploading', fraction }),
    onSent: () => onProgress({ phase: 'working' }),
    headers,
  });
}
