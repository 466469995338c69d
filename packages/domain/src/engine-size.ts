import type { FuelType } from './enums.js';

// No zod here: the vehicle and listing cards of the first screen import it.

/** False for an electric car entered without one (0 L): it has no engine size to show, not "0.0 L". */
export const hasEngineSize = (v: { fuelType: FuelType; engineSize: number }) =>
  v.fuelType !== 'ELECTRIC' || v.engineSize > 0;
