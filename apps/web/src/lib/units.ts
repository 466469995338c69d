import {
  CONSUMPTION_UNITS,
  type CurrencyCode,
  DISTANCE_UNITS,
  EXISTING_USER_MONEY_AND_UNITS,
  isCurrencyCode,
  type MoneyAndUnits,
  VOLUME_UNITS,
} from '@evdra/domain';
import { useStoredUser } from './session';

// The reader's currency and units, from the stored user (read offline, on every screen, without a
// request). A stored user from before currencies existed, or a server that does not send them yet,
// reads as every existing account does: EUR, km, L, L/100 km.

const pick = <T extends string>(allowed: readonly T[], value: unknown, fallback: T): T =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

/** A user's (or a stored user's) money and units; anything missing or unknown is the default. */
export function moneyAndUnitsOf(user: object | null | undefined): MoneyAndUnits {
  const u = (user ?? {}) as Partial<Record<keyof MoneyAndUnits, unknown>>;
  const d = EXISTING_USER_MONEY_AND_UNITS;
  return {
    currency: typeof u.currency === 'string' && isCurrencyCode(u.currency) ? u.currency : d.currency,
    distanceUnit: pick(DISTANCE_UNITS, u.distanceUnit, d.distanceUnit),
    volumeUnit: pick(VOLUME_UNITS, u.volumeUnit, d.volumeUnit),
    consumptionUnit: pick(CONSUMPTION_UNITS, u.consumptionUnit, d.consumptionUnit),
  };
}

/** The logged-in reader's money and units, re-rendering when settings change them. */
export function useMoneyAndUnits(): MoneyAndUnits {
  return moneyAndUnitsOf(useStoredUser());
}

/**
 * The currency an amount was paid in: the record's (or an analytics answer's) own `currency`, else
 * `fallback` (the reader's: a record saved before currencies existed is in its owner's, EUR).
 */
export function currencyOf(item: object | null | undefined, fallback: CurrencyCode): CurrencyCode {
  const c = (item as { currency?: unknown } | null | undefined)?.currency;
  return typeof c === 'string' && isCurrencyCode(c) ? c : fallback;
}
