import {
  DISTANCE_SIGNS,
  type DistanceUnitCode,
  distanceToStored,
  ENGINE_SIZE_MAX_L,
  FUEL_TYPES,
  type FuelType,
  storedToDistance,
  storedToVolume,
  VEHICLE_MIN_YEAR,
  type Vehicle,
  VehicleInput,
  VOLUME_SIGNS,
  type VolumeUnitCode,
  volumeToStored,
} from '@evdra/domain';
import { ImagePlus, Trash2 } from 'lucide-react';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import type { DefaultValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { CheckboxField, FieldShell, SelectField, TextField } from '../../../components/Field';
import { FormActions } from '../../../components/FormActions';
import { Modal } from '../../../components/Modal';
import { ApiError, errorText } from '../../../lib/api';
import { useZodForm } from '../../../lib/forms';
import { ownUnit, partnersOf } from '../../../lib/fuels';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { useMoneyAndUnits } from '../../../lib/units';
import { useCreateVehicle, useUpdateVehicle, useUploadPhoto } from '../api';
import { downsizePhoto } from '../photo';

interface VehicleFormModalProps {
  /** The vehicle being edited, or null to add one. */
  vehicle: Vehicle | null;
  onClose: () => void;
  onSaved: (vehicle: Vehicle) => void;
  /** A failed create is also reported on the list screen (spec §8). */
  onCreateError?: (message: string) => void;
}

type VehicleForm = z.input<typeof VehicleInput>;

/** A tank's size as typed: a liquid fuel's in the reader's volume unit, CNG's kg and a battery's kWh as kept. */
const tankShown = (
  size: number | null | undefined,
  fuel: FuelType | null | undefined,
  unit: VolumeUnitCode,
) => (size === null || size === undefined ? undefined : ownUnit(fuel) ? size : storedToVolume(size, unit));
const tankStored = (
  size: number | null | undefined,
  fuel: FuelType | null | undefined,
  unit: VolumeUnitCode,
) => (size === null || size === undefined ? null : ownUnit(fuel) ? size : volumeToStored(size, unit));

/** A vehicle as the form shows it: its odometer in the reader's distance unit, its tanks in their units. */
function toForm(
  v: Vehicle | null,
  unit: DistanceUnitCode,
  volume: VolumeUnitCode,
): DefaultValues<VehicleForm> {
  return {
    make: v?.make ?? '',
    model: v?.model ?? '',
    year: v?.year,
    fuelType: v?.fuelType ?? 'PETROL',
    secondaryFuelType: v?.secondaryFuelType ?? null,
    tankCapacity: tankShown(v?.tankCapacity, v?.fuelType, volume),
    secondaryTankCapacity: tankShown(v?.secondaryTankCapacity, v?.secondaryFuelType, volume),
    registrationNumber: v?.registrationNumber ?? '',
    vin: v?.vin ?? '',
    engineSize: v?.engineSize,
    odometer: v ? storedToDistance(v.odometer, unit) : undefined,
    aiEvaluationConsent: v?.aiEvaluationConsent ?? false,
  };
}

/**
 * Issue 51: a second fuel beside the first — only the pairs a car is built with (LPG or CNG with
 * petrol, electricity with petrol or diesel) — and each tank's or battery's size in its own unit.
 */
function FuelFields({
  form,
  volumeUnit,
}: {
  form: ReturnType<typeof useZodForm<typeof VehicleInput>>;
  volumeUnit: VolumeUnitCode;
}) {
  const { t } = useTranslation();
  const primary = form.watch('fuelType') as FuelType;
  const second = (form.watch('secondaryFuelType') ?? null) as FuelType | null;
  const partners = partnersOf(primary);
  // A second fuel that no longer goes with the first is dropped, and with no second fuel no second tank.
  const dropSecond = !!second && !partners.includes(second);
  const secondTank = form.watch('secondaryTankCapacity');
  useEffect(() => {
    if (dropSecond) form.setValue('secondaryFuelType', null, { shouldDirty: true });
  }, [dropSecond, form]);
  useEffect(() => {
    if (!second && secondTank !== undefined && secondTank !== null)
      form.setValue('secondaryTankCapacity', undefined, { shouldDirty: true });
  }, [second, secondTank, form]);
  const tankLabel = (fuel: FuelType) => {
    const own = ownUnit(fuel);
    const label =
      own === 'kWh' ? t('vehicles.battery') : t('vehicles.tankOf', { fuel: t(`fuelNames.${fuel}`) });
    return t('units.withSign', { label, sign: own ?? VOLUME_SIGNS[volumeUnit] });
  };
  const secondField = form.field('secondaryFuelType');
  return (
    <>
      {partners.length ? (
        <SelectField
          label={t('vehicles.secondaryFuelType')}
          {...secondField}
          {...form.register('secondaryFuelType', { setValueAs: (v) => (v === '' || v == null ? null : v) })}
        >
          <option value="">{t('vehicles.noSecondFuel')}</option>
          {partners.map((ft) => (
            <option key={ft} value={ft}>
              {t(`fuelTypes.${ft}`)}
            </option>
          ))}
        </SelectField>
      ) : null}
      <div className="form__row">
        <TextField
          label={tankLabel(primary)}
          type="number"
          inputMode="decimal"
          step="0.1"
          hint={t('fuel.optional')}
          {...form.field('tankCapacity', 'number')}
        />
        {second ? (
          <TextField
            label={tankLabel(second)}
            type="number"
            inputMode="decimal"
            step="0.1"
            hint={t('fuel.optional')}
            {...form.field('secondaryTankCapacity', 'number')}
          />
        ) : null}
      </div>
    </>
  );
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
  const { distanceUnit, volumeUnit } = useMoneyAndUnits();
  const form = useZodForm(VehicleInput, {
    defaultValues: toForm(vehicle, distanceUnit, volumeUnit),
    params: {
      yearMin: VEHICLE_MIN_YEAR,
      yearMax: new Date().getFullYear() + 1,
      engineMax: ENGINE_SIZE_MAX_L,
    },
  });
  const [photoError, setPhotoError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Vehicle | null>(null);
  const version = useRef(vehicle?.version ?? 0);
  const [photo, setPhoto] = useState<{ blob: Blob; url: string } | null>(null);
  const [removePhoto, setRemovePhoto] = useState(false);
  const [preparing, setPreparing] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => () => (photo ? URL.revokeObjectURL?.(photo.url) : undefined), [photo]);

  const onPickPhoto = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setPhotoError(undefined);
    if (!file.type.startsWith('image/')) {
      setPhotoError(t('vehicles.photoImagesOnly'));
      return;
    }
    setPreparing(true);
    try {
      const blob = await downsizePhoto(file);
      const url = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(blob) : '';
      setPhoto({ blob, url });
      setRemovePhoto(false);
    } catch {
      setPhotoError(t('vehicles.photoUnreadable'));
    } finally {
      setPreparing(false);
    }
  };

  const showFieldErrors = (err: unknown) =>
    form.showServerErrors(err, { DUPLICATE_REGISTRATION: 'registrationNumber' });

  const onSubmit = async (typed: VehicleInput) => {
    // Typed in the reader's unit, kept in km; tanks in litres (a liquid fuel's), kg or kWh. An
    // emptied size or a removed second fuel is sent as null (absent would keep the stored one).
    const second = typed.secondaryFuelType ?? null;
    const body = {
      ...typed,
      odometer: distanceToStored(typed.odometer, distanceUnit),
      secondaryFuelType: second,
      tankCapacity: tankStored(typed.tankCapacity, typed.fuelType, volumeUnit),
      secondaryTankCapacity: second ? tankStored(typed.secondaryTankCapacity, second, volumeUnit) : null,
    };
    setFailure(null);
    setBusy(true);
    try {
      if (isNew) {
        // A new single-fuel vehicle sends what it always did: no empty second fuel or tank sizes.
        for (const k of ['secondaryFuelType', 'tankCapacity', 'secondaryTankCapacity'] as const)
          if (body[k] === null) delete body[k];
        let created: Vehicle;
        try {
          created = await create.mutateAsync({ body, idempotencyKey: idempotencyKey(body) });
        } catch (err) {
          if (!showFieldErrors(err)) {
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
          form.clearErrors();
          return;
        }
        if (showFieldErrors(err)) return;
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
      <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
        {conflict ? (
          <div className="alert alert--error conflict" role="alert">
            <p>
              <strong>{t('vehicles.conflictTitle')}</strong> {t('vehicles.conflictBody')}
            </p>
            <p className="conflict__current">
              {t('vehicles.conflictCurrent', {
                values: `${conflict.make} ${conflict.model}, ${conflict.year}, ${t(`fuelTypes.${conflict.fuelType}`)}, ${conflict.registrationNumber}, ${conflict.engineSize} L, ${storedToDistance(conflict.odometer, distanceUnit)} ${DISTANCE_SIGNS[distanceUnit]}`,
              })}
            </p>
            <button
              type="button"
              className="btn btn--secondary btn--small"
              onClick={() => {
                form.reset(toForm(conflict, distanceUnit, volumeUnit));
                setConflict(null);
              }}
            >
              {t('vehicles.useCurrent')}
            </button>
          </div>
        ) : null}
        <div className="form__row">
          <TextField label={t('vehicles.make')} autoComplete="off" {...form.field('make')} data-autofocus />
          <TextField label={t('vehicles.model')} autoComplete="off" {...form.field('model')} />
        </div>
        <div className="form__row">
          <TextField
            label={t('vehicles.year')}
            type="number"
            inputMode="numeric"
            {...form.field('year', 'number')}
          />
          <SelectField label={t('vehicles.fuelType')} {...form.field('fuelType')}>
            {FUEL_TYPES.map((ft) => (
              <option key={ft} value={ft}>
                {t(`fuelTypes.${ft}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <FuelFields form={form} volumeUnit={volumeUnit} />
        <TextField
          label={t('vehicles.registrationNumber')}
          autoComplete="off"
          {...form.field('registrationNumber')}
        />
        <TextField
          label={t('vehicles.vinOptional')}
          hint={t('vehicles.vinHint')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          {...form.field('vin')}
        />
        <div className="form__row">
          <TextField
            label={t('vehicles.engineSizeL')}
            type="number"
            inputMode="decimal"
            step="0.1"
            {...form.field('engineSize', 'number')}
          />
          <TextField
            label={t('units.withSign', { label: t('vehicles.odometer'), sign: DISTANCE_SIGNS[distanceUnit] })}
            type="number"
            inputMode="numeric"
            {...form.field('odometer', 'number')}
          />
        </div>
        <CheckboxField label={t('vehicles.aiConsent')} {...form.field('aiEvaluationConsent')} />
        <FieldShell
          id={photoId}
          label={t('vehicles.photo')}
          error={photoError}
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
                  aria-describedby={photoError ? `${photoId}-error` : `${photoId}-hint`}
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
