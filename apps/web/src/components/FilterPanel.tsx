import { DISTANCE_SIGNS, type DistanceUnitCode, distanceToStored, storedToDistance } from '@evdra/domain';
import { Filter } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMoneyAndUnits } from '../lib/units';
import { TextField } from './Field';
import { Modal } from './Modal';

/** What the vehicles page and the marketplace filter by: text as typed, the odometer as a bound. */
export interface VehicleFilter {
  make: string;
  model: string;
  year: string;
  fuelType: string;
  maxOdometer: string;
}

export const EMPTY_FILTER: VehicleFilter = { make: '', model: '', year: '', fuelType: '', maxOdometer: '' };

export function isFilterActive(f: VehicleFilter): boolean {
  return Object.values(f).some((v) => v.trim() !== '');
}

interface FilterPanelProps {
  /**
   * The translation group of the page's texts (filterTitle, make, model, year, fuelType,
   * maxOdometer, clear, apply): each page keeps its own wording.
   */
  texts: 'vehicles' | 'market';
  initial: VehicleFilter;
  onApply: (filter: VehicleFilter) => void;
  onCancel: () => void;
}

/** A typed distance through `convert` (miles ↔ km); km, blank and unreadable text stay as typed. */
function convertTyped(text: string, convert: (n: number) => number, unit: DistanceUnitCode): string {
  const n = Number(text.replace(',', '.'));
  if (unit === 'km' || text.trim() === '' || !Number.isFinite(n)) return text;
  return String(convert(n));
}

/** Side panel (340 px) with the vehicle filters: Apply, Clear, Cancel. */
export function FilterPanel({ texts, initial, onApply, onCancel }: FilterPanelProps) {
  const { t } = useTranslation();
  // The filter keeps km (what the server and the cards compare); the panel shows the reader's unit.
  const { distanceUnit } = useMoneyAndUnits();
  const [f, setF] = useState<VehicleFilter>(() => ({
    ...initial,
    maxOdometer: convertTyped(initial.maxOdometer, (km) => storedToDistance(km, distanceUnit), distanceUnit),
  }));
  const set = (key: keyof VehicleFilter) => (value: string) => setF((prev) => ({ ...prev, [key]: value }));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    onApply({
      ...f,
      maxOdometer: convertTyped(f.maxOdometer, (v) => distanceToStored(v, distanceUnit), distanceUnit),
    });
  };

  return (
    <Modal title={t(`${texts}.filterTitle`)} onClose={onCancel} className="modal--side">
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField label={t(`${texts}.make`)} value={f.make} onValueChange={set('make')} data-autofocus />
        <TextField label={t(`${texts}.model`)} value={f.model} onValueChange={set('model')} />
        <TextField
          label={t(`${texts}.year`)}
          value={f.year}
          inputMode="numeric"
          onValueChange={set('year')}
        />
        <TextField label={t(`${texts}.fuelType`)} value={f.fuelType} onValueChange={set('fuelType')} />
        <TextField
          label={t('units.withSign', { label: t('units.maxOdometer'), sign: DISTANCE_SIGNS[distanceUnit] })}
          type="number"
          inputMode="numeric"
          min={0}
          value={f.maxOdometer}
          onValueChange={set('maxOdometer')}
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
            {t(`${texts}.clear`)}
          </button>
          <button type="submit" className="btn btn--primary">
            {t(`${texts}.apply`)}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * A page's vehicle filter: the header's Filter button (marked while a filter is on) and the panel
 * it opens. Render `button` among the page's actions and `panel` anywhere in the page.
 */
export function useFilterPanel(texts: FilterPanelProps['texts']) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<VehicleFilter>(EMPTY_FILTER);
  const [open, setOpen] = useState(false);
  const active = isFilterActive(filter);
  const button = (
    <button
      type="button"
      className={`btn btn--secondary${active ? ' btn--active' : ''}`}
      onClick={() => setOpen(true)}
    >
      <Filter size={18} aria-hidden="true" />
      {t(`${texts}.filter`)}
    </button>
  );
  const panel = open ? (
    <FilterPanel
      texts={texts}
      initial={filter}
      onApply={(f) => {
        setFilter(f);
        setOpen(false);
      }}
      onCancel={() => setOpen(false)}
    />
  ) : null;
  return { filter, active, clear: () => setFilter(EMPTY_FILTER), button, panel };
}
