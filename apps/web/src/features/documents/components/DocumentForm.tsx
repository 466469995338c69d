import {
  type Country,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES_BY_COUNTRY,
  type DocumentType,
  documentTypeLabel,
  type InspectionOcrPreview,
  type InsuranceOcrPreview,
  isPrivateByDefault,
  type VehicleDocument,
} from '@evdra/domain';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/Card';
import {
  ariaFor,
  CheckboxField,
  FieldShell,
  SelectField,
  TextAreaField,
  TextField,
} from '../../../components/Field';
import { Modal } from '../../../components/Modal';
import { ApiError, api, errorText } from '../../../lib/api';
import { isLanguage } from '../../../lib/i18n';
import { useSaveDocument } from '../api';

type Draft = {
  type: DocumentType;
  title: string;
  number: string;
  issuedOn: string;
  expiresOn: string;
  notes: string;
  private: boolean;
  /** Whether the user changed `private` (else it follows the type's default). */
  privateTouched: boolean;
  /** Whether the user typed a title (else it follows the type's name). */
  titleTouched: boolean;
};

/**
 * Adds or edits a document: its type under the name the user's country gives it, title, number,
 * dates, notes, private, and its pages (photos or a PDF). Errors show next to their fields; on a
 * failure nothing typed (nor the chosen files) is lost: the form stays open as it was.
 */
export function DocumentForm({
  vehicleId,
  country,
  editing,
  onClose,
}: {
  vehicleId: number;
  country: Country;
  editing: VehicleDocument | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const save = useSaveDocument(vehicleId);
  const types = DOCUMENT_TYPES_BY_COUNTRY[country];
  const options = editing && !types.includes(editing.type) ? [editing.type, ...types] : types;
  const first = editing?.type ?? types[0] ?? 'OTHER';
  const [d, setD] = useState<Draft>({
    type: first,
    title: editing?.title ?? documentTypeLabel(first, country, lang),
    number: editing?.number ?? '',
    issuedOn: editing?.issuedOn ?? '',
    expiresOn: editing?.expiresOn ?? '',
    notes: editing?.notes ?? '',
    private: editing?.private ?? isPrivateByDefault(first),
    privateTouched: !!editing,
    titleTouched: !!editing,
  });
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const filesId = useId();
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((prev) => ({ ...prev, [k]: v }));

  const onType = (value: string) => {
    const type = options.find((x) => x === value) ?? 'OTHER';
    setD((prev) => ({
      ...prev,
      type,
      title: prev.titleTouched ? prev.title : documentTypeLabel(type, country, lang),
      private: prev.privateTouched ? prev.private : isPrivateByDefault(type),
    }));
  };

  const refusal = (err: unknown): string | null => {
    if (!(err instanceof ApiError)) return null;
    if (err.status === 413) {
      const q = err.rawDetails as { usedBytes?: number; quotaBytes?: number } | undefined;
      if (q && typeof q.usedBytes === 'number' && typeof q.quotaBytes === 'number')
        return t('documents.quotaFull', {
          used: (q.usedBytes / 1048576).toFixed(1),
          quota: (q.quotaBytes / 1048576).toFixed(1),
        });
      return t('documents.tooLarge');
    }
    if (err.status !== 415) return null;
    const detail = err.details[0]?.message;
    if (detail === 'Encrypted PDF.') return t('documents.encrypted');
    if (detail === 'PDF with JavaScript.') return t('documents.scripted');
    return t('documents.wrongType');
  };

  // Scanning fills the form (issue 52): an insurance policy's photo is read by the receipt OCR's
  // insurance reader; its number, insurer and dates are proposed in the fields, nothing is saved.
  const [reading, setReading] = useState(false);
  // An ITP / ITV certificate proposes its expiry (the date after "Valabil până la", "Próxima inspección"…).
  const inspection = d.type === 'INSPECTION';
  const canRead = (d.type === 'MTPL_INSURANCE' || d.type === 'CASCO' || inspection) && files.length > 0;
  const onRead = async () => {
    const file = files[0];
    if (!file) return;
    setReading(true);
    setFailure(null);
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      if (inspection) {
        const r = await api<InspectionOcrPreview>(`/api/inspection-ocr/preview/${vehicleId}`, {
          method: 'POST',
          body: form,
        });
        setD((prev) => ({ ...prev, expiresOn: r.expiresOn ?? prev.expiresOn }));
        return;
      }
      const r = await api<InsuranceOcrPreview>(`/api/insurance-ocr/preview/${vehicleId}`, {
        method: 'POST',
        body: form,
      });
      setD((prev) => ({
        ...prev,
        number: r.policyNumber ?? prev.number,
        issuedOn: r.startDate ?? prev.issuedOn,
        expiresOn: r.endDate ?? prev.expiresOn,
        ...(r.provider && !prev.titleTouched
          ? { title: `${documentTypeLabel(prev.type, country, lang)} ${r.provider}`.slice(0, 120) }
          : {}),
      }));
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setReading(false);
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Record<string, string> = {};
    if (!d.title.trim()) next.title = t('documents.required');
    if (!editing && files.length === 0) next.files = t('documents.filesRequired');
    if (files.reduce((s, f) => s + f.size, 0) > DOCUMENT_MAX_BYTES) next.files = t('documents.tooLarge');
    if (d.issuedOn && d.expiresOn && d.expiresOn < d.issuedOn)
      next.expiresOn = t('documents.expiresBeforeIssued');
    setErrors(next);
    setFailure(null);
    if (Object.keys(next).length) return;
    try {
      await save.mutateAsync({
        id: editing?.id,
        version: editing?.version,
        data: {
          type: d.type,
          title: d.title.trim(),
          number: d.number.trim() || null,
          issuedOn: d.issuedOn || null,
          expiresOn: d.expiresOn || null,
          notes: d.notes,
          private: d.private,
        },
        files,
      });
      onClose();
    } catch (err) {
      // 413 and 415 say why (too large, storage full, not a photo or PDF, encrypted or scripted PDF):
      // in the reader's language, next to the pages and above the buttons.
      const reason = refusal(err);
      if (reason) {
        setErrors({ files: reason });
        setFailure(reason);
        return;
      }
      if (err instanceof ApiError && err.details.length) {
        setErrors(Object.fromEntries(err.details.map((x) => [x.field.replace(/^data\./, ''), x.message])));
      }
      setFailure(errorText(err));
    }
  };

  return (
    <Modal title={editing ? t('documents.edit') : t('documents.add')} onClose={onClose}>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <SelectField
          label={t('documents.type')}
          name="type"
          value={d.type}
          onValueChange={onType}
          error={errors.type}
          data-autofocus
        >
          {options.map((type) => (
            <option key={type} value={type}>
              {documentTypeLabel(type, country, lang)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('documents.titleField')}
          name="title"
          value={d.title}
          onValueChange={(v) => setD((prev) => ({ ...prev, title: v, titleTouched: true }))}
          error={errors.title}
        />
        <TextField
          label={t('documents.number')}
          name="number"
          value={d.number}
          onValueChange={(v) => set('number', v)}
          error={errors.number}
        />
        <div className="form__row">
          <TextField
            label={t('documents.issuedOn')}
            name="issuedOn"
            type="date"
            value={d.issuedOn}
            onValueChange={(v) => set('issuedOn', v)}
            error={errors.issuedOn}
          />
          <TextField
            label={t('documents.expiresOn')}
            name="expiresOn"
            type="date"
            value={d.expiresOn}
            onValueChange={(v) => set('expiresOn', v)}
            error={errors.expiresOn}
            hint={t('documents.expiresHint')}
          />
        </div>
        <FieldShell
          id={filesId}
          label={editing ? t('documents.replacePages') : t('documents.pages')}
          error={errors.files}
          hint={t('documents.pagesHint')}
        >
          <input
            id={filesId}
            name="files"
            type="file"
            className="input"
            multiple
            accept="image/jpeg,image/png,image/webp,application/pdf"
            onChange={(e) => setFiles(Array.from(e.target.files ?? []))}
            {...ariaFor(filesId, errors.files, t('documents.pagesHint'))}
          />
        </FieldShell>
        {files.length ? <p className="field__hint">{files.map((f) => f.name).join(', ')}</p> : null}
        {canRead ? (
          <button
            type="button"
            className="btn btn--secondary btn--small"
            onClick={() => void onRead()}
            disabled={reading}
          >
            {reading
              ? t('documents.reading')
              : t(inspection ? 'documents.readInspection' : 'documents.readPolicy')}
          </button>
        ) : null}
        <TextAreaField
          label={t('documents.notes')}
          name="notes"
          value={d.notes}
          onChange={(e) => set('notes', e.target.value)}
          error={errors.notes}
        />
        <CheckboxField
          label={t('documents.private')}
          name="private"
          checked={d.private}
          onCheckedChange={(c) => setD((prev) => ({ ...prev, private: c, privateTouched: true }))}
        />
        <p className="field__hint">{t('documents.privateHint')}</p>
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <div className="form__actions">
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={save.isPending}>
            {save.isPending ? t('common.saving') : t('common.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
