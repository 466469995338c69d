import { ENGINE_SIZE_MAX_L, VEHICLE_MIN_YEAR } from '@evdra/domain';
import type { TFunction } from 'i18next';
import { parseNumber } from '../../lib/format';
import type { FieldErrors } from '../../lib/validation';

export interface VehicleForm {
  make: string;
  model: string;
  year: string;
  fuelType: string;
  registrationNumber: string;
  engineSize: string;
  odometer: string;
  aiEvaluationConsent: boolean;
}

/** The same rules as the server's VehicleInput, with translated messages. */
export function validateVehicle(form: VehicleForm, t: TFunction): FieldErrors {
  const errors: FieldErrors = {};
  const text = (field: 'make' | 'model' | 'registrationNumber', max: number) => {
    const v = form[field].trim();
    if (!v) errors[field] = t(`vehicles.validation.${field}Required`);
    else if (v.length > max) errors[field] = t('vehicles.validation.tooLong', { max });
  };
  text('make', 50);
  text('model', 50);
  text('registrationNumber', 20);

  const maxYear = new Date().getFullYear() + 1;
  const year = parseNumber(form.year);
  if (year === null) errors.year = t('vehicles.validation.yearRequired');
  else if (!Number.isInteger(year) || year < VEHICLE_MIN_YEAR || year > maxYear)
    errors.year = t('vehicles.validation.yearRange', { min: VEHICLE_MIN_YEAR, max: maxYear });

  if (!form.fuelType) errors.fuelType = t('vehicles.validation.fuelTypeRequired');

  const engine = parseNumber(form.engineSize);
  if (engine === null) errors.engineSize = t('vehicles.validation.engineSizeRequired');
  else if (Number.isNaN(engine) || engine < 0 || engine > ENGINE_SIZE_MAX_L)
    errors.engineSize = t('vehicles.validation.engineSizeRange', { max: ENGINE_SIZE_MAX_L });

  const odometer = parseNumber(form.odometer);
  if (odometer === null) errors.odometer = t('vehicles.validation.odometerRequired');
  else if (!Number.isInteger(odometer) || odometer < 0)
    errors.odometer = t('vehicles.validation.odometerRange');
  return errors;
}
