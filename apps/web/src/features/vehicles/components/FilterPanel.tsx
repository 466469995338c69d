import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/Field';
import { Modal } from '../../../components/Modal';
import { EMPTY_FILTER, type VehicleFilter } from '../filter';

interface FilterPanelProps {
  initial: VehicleFilter;
  onApply: (filter: VehicleFilter) => void;
  onCancel: () => void;
}

/** Side panel (340 px) with the client-side vehicle filters: Apply, Clear, Cancel. */
export function FilterPanel({ initial, onApply, onCancel }: FilterPanelProps) {
  const { t } = useTranslation();
  const [f, setF] = useState<VehicleFilter>(initial);
  const set = (key: keyof VehicleFilter, value: string) => setF((prev) => ({ ...prev, [key]: value }));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    onApply(f);
  };

  return (
    <Modal title={t('vehicles.filterTitle')} onClose={onCancel} className="modal--side">
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('vehicles.make')}
          value={f.make}
          onValueChange={(v) => set('make', v)}
          data-autofocus
        />
        <TextField label={t('vehicles.model')} value={f.model} onValueChange={(v) => set('model', v)} />
        <TextField
          label={t('vehicles.year')}
          value={f.year}
          inputMode="numeric"
          onValueChange={(v) => set('year', v)}
        />
        <TextField
          label={t('vehicles.fuelType')}
          value={f.fuelType}
          onValueChange={(v) => set('fuelType', v)}
        />
        <TextField
          label={t('vehicles.maxOdometer')}
          type="number"
          inputMode="numeric"
          min={0}
          value={f.maxOdometer}
          onValueChange={(v) => set('maxOdometer', v)}
        />
        <div className="form__actions">
          <button type="button" className="btn btn--secondary" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => {
              setF(EMPTY_FILTER);
              onApply(EMPTY_FILTER);
            }}
          >
            {t('vehicles.clear')}
          </button>
          <button type="submit" className="btn btn--primary">
            {t('vehicles.apply')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
