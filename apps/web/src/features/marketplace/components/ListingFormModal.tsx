import {
  CURRENCIES,
  type CurrencyCode,
  isCurrencyCode,
  LISTING_PHOTOS_MAX,
  type Listing,
  ListingCreateBody,
} from '@evdra/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { ImagePlus, X } from 'lucide-react';
import { type DragEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FieldShell } from '../../../components/Field';
import { Modal } from '../../../components/Modal';
import { ApiError } from '../../../lib/api';
import { currencySign, useFormat } from '../../../lib/format';
import { currencyOf } from '../../../lib/units';
import { useMyVehicles, useSaveListing } from '../api';

const CreateForm = ListingCreateBody;
const EditForm = ListingCreateBody.omit({ vehicleId: true });
type FormIn = z.input<typeof CreateForm>;
type FormOut = z.output<typeof CreateForm>;

/** The domain schemas speak the spec's English; the form shows them in the user's language. */
const MESSAGE_KEYS: Record<string, string> = {
  'Please select a vehicle.': 'market.form.selectVehicle',
  'Enter a valid price.': 'market.form.validPrice',
  'At most 2000 characters.': 'market.form.descriptionTooLong',
};

interface ListingFormModalProps {
  /** The listing being edited, or null to create one. */
  listing: Listing | null;
  onClose: () => void;
  onSaved: () => void;
}

type Picked = { file: File; url: string };

/** Create or edit a listing: vehicle (create only), price, description, photos (drop zone, previews). */
export function ListingFormModal({ listing, onClose, onSaved }: ListingFormModalProps) {
  const { t } = useTranslation();
  const isNew = listing === null;
  const vehicles = useMyVehicles(isNew);
  const save = useSaveListing();
  const ids = { vehicle: useId(), price: useId(), description: useId(), photos: useId() };
  const [picked, setPicked] = useState<Picked[]>([]);
  const [removed, setRemoved] = useState<string[]>([]);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const { lng, currency: readerCurrency } = useFormat();
  // Romanian sellers price cars in euros: the price's currency is the seller's pick (default: theirs).
  const [currency, setCurrency] = useState<CurrencyCode>(() => currencyOf(listing, readerCurrency));
  const currencyId = useId();

  const schema = useMemo(
    () => (isNew ? CreateForm : EditForm.extend({ vehicleId: z.unknown().optional() })),
    [isNew],
  ) as unknown as typeof CreateForm;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(schema),
    defaultValues: {
      vehicleId: listing?.vehicleId ?? Number.NaN,
      price: listing?.price ?? ('' as unknown as number),
      description: listing?.description ?? '',
    },
  });

  // Preview URLs are freed when the dialog closes.
  const previews = useRef<string[]>([]);
  useEffect(
    () => () => {
      for (const url of previews.current) URL.revokeObjectURL?.(url);
    },
    [],
  );

  const existing = (listing?.photoUrls ?? []).filter((u) => !removed.includes(u));
  const room = LISTING_PHOTOS_MAX - existing.length - picked.length;

  const addFiles = (files: FileList | File[]) => {
    setPhotoError(null);
    const list = Array.from(files);
    const images = list.filter((f) => f.type.startsWith('image/'));
    if (images.length < list.length) setPhotoError(t('market.form.imagesOnly'));
    if (images.length > room) setPhotoError(t('market.form.tooManyPhotos', { max: LISTING_PHOTOS_MAX }));
    const accepted = images.slice(0, Math.max(0, room)).map((file) => ({
      file,
      url: typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '',
    }));
    previews.current.push(...accepted.map((a) => a.url));
    setPicked((p) => [...p, ...accepted]);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    addFiles(e.dataTransfer.files);
  };

  const msg = (m?: string) => (m ? t(MESSAGE_KEYS[m] ?? m, { defaultValue: m }) : undefined);

  const onSubmit = async (values: FormOut) => {
    const data = isNew
      ? { vehicleId: values.vehicleId, price: values.price, currency, description: values.description.trim() }
      : { price: values.price, currency, description: values.description.trim(), removePhotoUrls: removed };
    try {
      await save.mutateAsync({ id: listing?.id, data, photos: picked.map((p) => p.file) });
      onSaved();
    } catch (err) {
      let shown = false;
      if (err instanceof ApiError) {
        for (const d of err.details) {
          if (d.field === 'vehicleId' || d.field === 'price' || d.field === 'description') {
            setError(d.field as FieldPath<FormIn>, { message: d.message });
            shown = true;
          } else if (d.field === 'photos' || d.field === 'newPhotos') {
            setPhotoError(d.message);
            shown = true;
          }
        }
      }
      if (!shown) window.alert(t('market.form.submissionFailed'));
    }
  };

  const errorProps = (id: string, message?: string) => ({
    'aria-invalid': message ? true : undefined,
    'aria-describedby': message ? `${id}-error` : undefined,
  });

  return (
    <Modal title={isNew ? t('market.form.createTitle') : t('market.form.editTitle')} onClose={onClose}>
      <form className="form" onSubmit={handleSubmit(onSubmit)} noValidate>
        {isNew ? (
          <FieldShell
            id={ids.vehicle}
            label={t('market.form.vehicle')}
            error={msg(errors.vehicleId?.message)}
          >
            <select
              id={ids.vehicle}
              className="input"
              data-autofocus
              {...register('vehicleId', { valueAsNumber: true })}
              {...errorProps(ids.vehicle, errors.vehicleId?.message)}
            >
              <option value="">{t('market.form.chooseVehicle')}</option>
              {(vehicles.data ?? []).map((v) => (
                <option key={v.id} value={v.id}>
                  {v.make} {v.model} ({v.year})
                </option>
              ))}
            </select>
          </FieldShell>
        ) : null}
        <FieldShell
          id={ids.price}
          label={t('units.withSign', { label: t('units.price'), sign: currencySign(currency, lng) })}
          error={msg(errors.price?.message)}
        >
          <input
            id={ids.price}
            className="input"
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            {...(isNew ? {} : { 'data-autofocus': true })}
            {...register('price', { valueAsNumber: true })}
            {...errorProps(ids.price, errors.price?.message)}
          />
        </FieldShell>
        <FieldShell id={currencyId} label={t('units.currency')}>
          <select
            id={currencyId}
            className="input"
            value={currency}
            onChange={(e) => setCurrency(isCurrencyCode(e.target.value) ? e.target.value : readerCurrency)}
          >
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {t(`currencies.${c}`)}
              </option>
            ))}
          </select>
        </FieldShell>
        <FieldShell
          id={ids.description}
          label={t('market.form.description')}
          error={msg(errors.description?.message)}
        >
          <textarea
            id={ids.description}
            className="input textarea"
            rows={4}
            maxLength={2000}
            {...register('description')}
            {...errorProps(ids.description, errors.description?.message)}
          />
        </FieldShell>

        <FieldShell id={ids.photos} label={t('market.form.photos')} error={photoError ?? undefined}>
          {existing.length > 0 || picked.length > 0 ? (
            <ul className="thumbs">
              {existing.map((url, i) => (
                <li key={url}>
                  <img src={url} alt={t('market.form.existingPhoto', { n: i + 1 })} />
                  <button
                    type="button"
                    className="thumbs__remove"
                    aria-label={t('market.form.removePhoto', { n: i + 1 })}
                    onClick={() => setRemoved((r) => [...r, url])}
                  >
                    <X size={14} aria-hidden="true" />
                  </button>
                </li>
              ))}
              {picked.map((p, i) => (
                <li key={p.url || `${p.file.name}-${i}`}>
                  <img src={p.url} alt={t('market.form.newPhoto', { name: p.file.name })} />
                  <button
                    type="button"
                    className="thumbs__remove"
                    aria-label={t('market.form.removeNewPhoto', { name: p.file.name })}
                    onClick={() => setPicked((all) => all.filter((x) => x !== p))}
                  >
                    <X size={14} aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <label
            className={`dropzone${dragging ? ' dropzone--active' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <ImagePlus size={22} aria-hidden="true" />
            <span>{t('market.form.dropHere', { max: LISTING_PHOTOS_MAX })}</span>
            <input
              id={ids.photos}
              className="visually-hidden"
              type="file"
              accept="image/*"
              multiple
              disabled={room <= 0}
              onChange={(e) => {
                if (e.target.files) addFiles(e.target.files);
                e.target.value = '';
              }}
              aria-describedby={photoError ? `${ids.photos}-error` : undefined}
            />
          </label>
        </FieldShell>

        <div className="form__actions">
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={isSubmitting}>
            {isSubmitting ? t('common.saving') : t('market.form.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
