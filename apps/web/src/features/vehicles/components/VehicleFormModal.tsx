import { FUEL_TYPES, type FuelType, type Vehicle, type VehicleInput } from '@evdra/domain';
import { ImagePlus, Trash2 } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckboxField, FieldShell, SelectField, TextField } from '../../../components/Field';
import { FormActions } from '../../../components/FormActions';
import { Modal } from '../../../components/Modal';
import { ApiError, errorText } from '../../../lib/api';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { type FieldErrors, hasErrors } from '../../../lib/validation';
import { useCreateVehicle, useUpdateVehicle, useUploadPhoto } from '../api';
import { downsizePhoto } from '../photo';
import { type VehicleForm, validateVehicle } from '../validation';

interface VehicleFormModalProps {
  /** The vehicle being edited, or null to add one. */
  vehicle: Vehicle | null;
  onClose: () => void;
  onSaved: (vehicle: Vehicle) => void;
  /** A failed create is also reported on the list screen (spec §8). */
  onCreateError?: (message: string) => void;
}

const FIELDS = new Set([
  'make',
  'model',
  'year',
  'fuelType',
  'registrationNumber',
  'engineSize',
  'odometer',
  'aiEvaluationConsent',
]);

function toForm(v: Vehicle | null): VehicleForm {
  return {
    make: v?.make ?? '',
    model: v?.model ?? '',
    year: v ? String(v.year) : '',
    fuelType: v?.fuelType ?? 'PETROL',
    registrationNumber: v?.registrationNumber ?? '',
    engineSize: v ? String(v.engineSize) : '',
    odometer: v ? String(v.odometer) : '',
    aiEvaluationConsent: v?.aiEvaluationConsent ?? false,
  };
}

function toBody(f: VehicleForm): VehicleInput {
  return {
    make: f.make.trim(),
    model: f.model.trim(),
    year: Number(f.year),
    fuelType: f.fuelType as FuelType,
    registrationNumber: f.registrationNumber.trim().toUpperCase(),
    engineSize: Number(f.engineSize.replace(',', '.')),
    odometer: Number(f.odometer),
    aiEvaluationConsent: f.aiEvaluationConsent,
  };
}

const isVehicle = (x: unknown): x is Vehicle =>
  !!x && typeof x === 'object' && 'id' in x && 'version' in x && 'make' in x;

/** Add/edit vehicle dialog with photo picker. Keeps everything typed when saving fails. */
export function VehicleFormModal({ vehicle, onClose, onSaved, onCreateError }: VehicleFormModalProps) {
  const { t } = useTranslation();
  const create = useCreateVehicle();
  const update = useUpdateVehicle();
  const upload = useUploadPhoto();
  const idempotencyKey = useIdempotencyKey();
  const photoId = useId();
  const isNew = vehicle === null;
  const [form, setForm] = useState<VehicleForm>(() => toForm(vehicle));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Vehicle | null>(null);
  const version = useRef(vehicle?.version ?? 0);
  const [photo, setPhoto] = useState<{ blob: Blob; url: string } | null>(null);
  const [removePhoto, setRemovePhoto] = useState(false);
  const [preparing, setPreparing] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => () => (photo ? URL.revokeObjectURL?.(photo.url) : undefined), [photo]);

  const set = <K extends keyof VehicleForm>(key: K, value: VehicleForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const onPickPhoto = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setErrors((er) => ({ ...er, photo: undefined }));
    if (!file.type.startsWith('image/')) {
      setErrors((er) => ({ ...er, photo: t('vehicles.photoImagesOnly') }));
      return;
    }
    setPreparing(true);
    try {
      const blob = await downsizePhoto(file);
      const url = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(blob) : '';
      setPhoto({ blob, url });
      setRemovePhoto(false);
    } catch {
      setErrors((er) => ({ ...er, photo: t('vehicles.photoUnreadable') }));
    } finally {
      setPreparing(false);
    }
  };

  const fieldErrorsFrom = (err: unknown): FieldErrors => {
    const out: FieldErrors = {};
    if (err instanceof ApiError) {
      for (const d of err.details) if (FIELDS.has(d.field)) out[d.field] = d.message || errorText(err);
      if (err.code === 'DUPLICATE_REGISTRATION') out.registrationNumber = t('errors.DUPLICATE_REGISTRATION');
    }
    return out;
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const next = validateVehicle(form, t);
    setErrors(next);
    if (hasErrors(next)) return;
    const body = toBody(form);
    setBusy(true);
    try {
      if (isNew) {
        let created: Vehicle;
        try {
          created = await create.mutateAsync({ body, idempotencyKey: idempotencyKey(body) });
        } catch (err) {
          const fieldErrors = fieldErrorsFrom(err);
          setErrors(fieldErrors);
          if (!hasErrors(fieldErrors)) {
            const message = t('vehicles.error', { message: errorText(err) });
            setFailure(message);
            onCreateError?.(message);
          }
          return;
        }
        if (photo) {
          try {
            const photoUrl = await upload.mutateAsync({ id: created.id, photo: photo.blob });
            created = { ...created, photoUrl: typeof photoUrl === 'string' ? photoUrl : created.photoUrl };
          } catch (err) {
            window.alert(t('vehicles.uploadFailed', { message: errorText(err) }));
          }
        }
        onSaved(created);
        return;
      }
      try {
        const saved = await update.mutateAsync({
          id: vehicle.id,
          body: { ...body, version: version.current },
          photo: photo?.blob ?? null,
          removePhoto,
        });
        onSaved(saved);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'VERSION_CONFLICT' && isVehicle(err.rawDetails)) {
          version.current = err.rawDetails.version;
          setConflict(err.rawDetails);
          setErrors({});
          return;
        }
        const fieldErrors = fieldErrorsFrom(err);
        setErrors(fieldErrors);
        if (hasErrors(fieldErrors)) return;
        const photoProblem =
          err instanceof ApiError &&
          (err.code === 'PAYLOAD_TOO_LARGE' || err.code === 'UNSUPPORTED_MEDIA_TYPE');
        window.alert(
          t(photoProblem ? 'vehicles.uploadFailed' : 'vehicles.updateFailed', { message: errorText(err) }),
        );
      }
    } finally {
      setBusy(false);
    }
  };

  const currentPhoto = photo?.url || (!removePhoto ? vehicle?.photoUrl : null) || null;
  const title = isNew ? t('vehicles.addTitle') : t('vehicles.editTitle');

  return (
    <Modal title={title} onClose={onClose}>
      <form className="form" onSubmit={onSubmit} noValidate>
        {conflict ? (
          <div className="alert alert--error conflict" role="alert">
            <p>
              <strong>{t('vehicles.conflictTitle')}</strong> {t('vehicles.conflictBody')}
            </p>
            <p className="conflict__current">
              {t('vehicles.conflictCurrent', {
                values: `${conflict.make} ${conflict.model}, ${conflict.year}, ${t(`fuelTypes.${conflict.fuelType}`)}, ${conflict.registrationNumber}, ${conflict.engineSize} L, ${conflict.odometer} km`,
              })}
            </p>
            <button
              type="button"
              className="btn btn--secondary btn--small"
              onClick={() => {
                setForm(toForm(conflict));
                setConflict(null);
              }}
            >
              {t('vehicles.useCurrent')}
            </button>
          </div>
        ) : null}
        <div className="form__row">
          <TextField
            label={t('vehicles.make')}
            name="make"
            autoComplete="off"
            value={form.make}
            onValueChange={(v) => set('make', v)}
            error={errors.make}
            data-autofocus
          />
          <TextField
            label={t('vehicles.model')}
            name="model"
            autoComplete="off"
            value={form.model}
            onValueChange={(v) => set('model', v)}
            error={errors.model}
          />
        </div>
        <div className="form__row">
          <TextField
            label={t('vehicles.year')}
            name="year"
            type="number"
            inputMode="numeric"
            value={form.year}
            onValueChange={(v) => set('year', v)}
            error={errors.year}
          />
          <SelectField
            label={t('vehicles.fuelType')}
            value={form.fuelType}
            onValueChange={(v) => set('fuelType', v)}
            error={errors.fuelType}
          >
            {FUEL_TYPES.map((ft) => (
              <option key={ft} value={ft}>
                {t(`fuelTypes.${ft}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <TextField
          label={t('vehicles.registrationNumber')}
          name="registrationNumber"
          autoComplete="off"
          value={form.registrationNumber}
          onValueChange={(v) => set('registrationNumber', v)}
          error={errors.registrationNumber}
        />
        <div className="form__row">
          <TextField
            label={t('vehicles.engineSizeL')}
            name="engineSize"
            type="number"
            inputMode="decimal"
            step="0.1"
            value={form.engineSize}
            onValueChange={(v) => set('engineSize', v)}
            error={errors.engineSize}
          />
          <TextField
            label={t('vehicles.odometerKm')}
            name="odometer"
            type="number"
            inputMode="numeric"
            value={form.odometer}
            onValueChange={(v) => set('odometer', v)}
            error={errors.odometer}
          />
        </div>
        <CheckboxField
          label={t('vehicles.aiConsent')}
          name="aiEvaluationConsent"
          checked={form.aiEvaluationConsent}
          onCheckedChange={(c) => set('aiEvaluationConsent', c)}
          error={errors.aiEvaluationConsent}
        />
        <FieldShell
          id={photoId}
          label={t('vehicles.photo')}
          error={errors.photo}
          hint={t('vehicles.photoHint')}
        >
          <div className="photo-picker">
            {currentPhoto ? (
              <img className="photo-picker__preview" src={currentPhoto} alt={t('vehicles.photoPreview')} />
            ) : null}
            <div className="photo-picker__actions">
              <label className="btn btn--secondary btn--small photo-picker__choose">
                <ImagePlus size={16} aria-hidden="true" />
                {preparing ? t('vehicles.preparingPhoto') : t('vehicles.choosePhoto')}
                <input
                  id={photoId}
                  className="visually-hidden"
                  type="file"
                  accept="image/*"
                  onChange={(e) => void onPickPhoto(e)}
                  aria-describedby={errors.photo ? `${photoId}-error` : `${photoId}-hint`}
                />
              </label>
              {currentPhoto ? (
                <button
                  type="button"
                  className="btn btn--secondary btn--small"
                  onClick={() => {
                    setPhoto(null);
                    setRemovePhoto(true);
                  }}
                >
                  <Trash2 size={16} aria-hidden="true" />
                  {t('vehicles.removePhoto')}
                </button>
              ) : null}
            </div>
          </div>
        </FieldShell>
        <FormActions failure={failure} busy={busy} disabled={busy || preparing} onCancel={onClose} />
      </form>
    </Modal>
  );
}
