import type { OcrPreview } from '@evdra/domain';
import { Camera, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import type { RecordKind } from '../api';
import { type ReceiptUpload, UploadCancelled, type UploadProgress, uploadReceipt } from './upload';

interface ReceiptButtonProps {
  kind: RecordKind;
  /** The vehicle the receipt is for (ownership and odometer checks); the form lets the user change it. */
  vehicleId: number;
  onPreview: (preview: OcrPreview) => void;
  onFailure: (err: unknown) => void;
  onStart?: () => void;
  /** No connection (offline, or the upload could not reach the server): keep the file for later. */
  onOffline?: (file: File) => Promise<void>;
}

/**
 * Upload Receipt: a file picker that offers the camera on phones, a real upload progress bar, then
 * "Reading receipt…" until the preview answers; Cancel aborts the request.
 */
export function ReceiptButton({
  kind,
  vehicleId,
  onPreview,
  onFailure,
  onStart,
  onOffline,
}: ReceiptButtonProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const current = useRef<ReceiptUpload | null>(null);
  useEffect(() => () => current.current?.cancel(), []);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    onStart?.();
    if (onOffline && !navigator.onLine) {
      await onOffline(file).catch(onFailure);
      if (input.current) input.current.value = '';
      return;
    }
    const upload = uploadReceipt(kind, vehicleId, file, setProgress);
    current.current = upload;
    try {
      const preview = await upload.promise;
      onPreview(preview);
    } catch (err) {
      if (onOffline && err instanceof ApiError && err.status === 0) await onOffline(file).catch(onFailure);
      else if (!(err instanceof UploadCancelled)) onFailure(err);
    } finally {
      current.current = null;
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  const percent = progress?.phase === 'uploading' ? Math.round(progress.fraction * 100) : 100;
  return (
    <>
      <input
        ref={input}
        type="file"
        accept="image/*,application/pdf"
        capture="environment"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid={`${kind}-receipt-input`}
        onChange={(e) => pick(e.target.files?.[0])}
      />
      <button
        type="button"
        className="btn btn--secondary"
        disabled={progress !== null}
        onClick={() => input.current?.click()}
      >
        <Camera size={18} aria-hidden="true" />
        {t('records.uploadReceipt')}
      </button>
      {progress ? (
        <div className="receipt-progress" aria-live="polite">
          <div className="receipt-progress__label">
            {progress.phase === 'uploading' ? t('ocr.uploading', { percent }) : t('ocr.reading')}
          </div>
          <progress
            className="receipt-progress__bar"
            max={100}
            value={progress.phase === 'uploading' ? percent : undefined}
            aria-label={progress.phase === 'uploading' ? t('ocr.uploadProgress') : t('ocr.reading')}
          />
          <button
            type="button"
            className="btn btn--secondary btn--small"
            onClick={() => current.current?.cancel()}
          >
            <X size={16} aria-hidden="true" />
            {t('ocr.cancel')}
          </button>
        </div>
      ) : null}
    </>
  );
}
