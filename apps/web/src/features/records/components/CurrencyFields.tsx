import { CURRENCIES, type CurrencyCode, type FxRate, isCurrencyCode } from '@evdra/domain';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../../components/Field';
import { ApiError, api } from '../../../lib/api';
import { formatDate, formatMoney } from '../../../lib/format';
import type { ZodForm } from '../../../lib/forms';
import type { RecordSchema } from './recordFields';

// A record's currency (default: the reader's) and, when it is another one, the rate it was paid at:
// one unit of the record's currency in the reader's. The rate is proposed from the server's daily
// reference rates (GET /api/fx/rate) for the record's day; when none is known, from the rate the
// user typed last for that pair (kept in this browser), else the user types it. An opened record's own
// rate is the one stored, to the vehicle owner's currency (a shared car's editor reads it against it).

/** A field this component sets on any record schema that has it (all four record bodies do). */
const name = (n: 'currency' | 'exchangeRate' | 'rateSource' | 'rateDate') =>
  n as FieldPath<FieldValues> as never;

const LAST_RATE_KEY = (from: string, to: string) => `evdra:lastRate:${from}:${to}`;

/** The rate this user typed last for a pair, if any. */
export function rememberedRate(from: string, to: string): number | undefined {
  try {
    const n = Number(localStorage.getItem(LAST_RATE_KEY(from, to)));
    return n > 0 && Number.isFinite(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a rate the user typed for the next record in that pair. */
export function rememberRate(from: string, to: string, rate: number): void {
  try {
    localStorage.setItem(LAST_RATE_KEY(from, to), String(rate));
  } catch {
    // A full or blocked storage only loses the suggestion.
  }
}

type Hint =
  | { kind: 'bank'; date: string }
  | { kind: 'receipt' }
  | { kind: 'remembered' }
  | { kind: 'unknown' }
  | { kind: 'record' }
  | { kind: 'typed' };

export function CurrencyFields<S extends RecordSchema>({
  form,
  label,
  readerCurrency,
  ownerCurrency,
  check,
  paidField,
}: {
  form: ZodForm<S>;
  label: string;
  readerCurrency: CurrencyCode;
  /**
   * The vehicle owner's currency (the vehicle answer's ownerCurrency): the server stores every rate to
   * it, so an opened record's own rate is units of it, not of the reader's (a shared car's editor).
   */
  ownerCurrency?: CurrencyCode;
  /** Under the currency: why a receipt's reading of it should be checked. */
  check?: ReactNode;
  /**
   * The amount field whose value, in another currency, is also shown converted to the reader's at
   * the rate ("Paid: 250,00 lei ≈ 50,25 €"): a receipt's preview.
   */
  paidField?: string;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const values = form.watch() as Record<string, unknown>;
  const currency =
    typeof values.currency === 'string' && isCurrencyCode(values.currency) ? values.currency : readerCurrency;
  const day = (typeof values.date === 'string' ? values.date : values.startDate) as string | undefined;
  const foreign = currency !== readerCurrency;
  // An edited record's own rate stays until its currency or day changes; so does the rate a receipt's
  // preview read off the receipt (to the reader's currency, not the owner's like a stored one).
  const initial = useRef({ currency, day, hadRate: typeof values.exchangeRate === 'number' });
  const [hint, setHint] = useState<Hint | null>(
    initial.current.hadRate
      ? paidField !== undefined && values.rateSource === 'RECEIPT'
        ? { kind: 'receipt' }
        : { kind: 'record' }
      : null,
  );
  const typed = useRef(false);

  const { setValue } = form;
  useEffect(() => {
    const set = (rate: number | undefined, source?: 'ECB' | 'MANUAL', rateDate?: string) => {
      setValue(name('exchangeRate'), rate as never, { shouldValidate: false });
      setValue(name('rateSource'), source as never);
      setValue(name('rateDate'), rateDate as never);
    };
    if (!foreign) {
      set(undefined);
      setHint(null);
      return;
    }
    const unchanged = currency === initial.current.currency && day === initial.current.day;
    if ((unchanged && initial.current.hadRate) || typed.current) return;
    let cancelled = false;
    api<FxRate>('/api/fx/rate', { query: { from: currency, to: readerCurrency, date: day || undefined } })
      .then((answer) => {
        if (cancelled || typed.current) return;
        set(answer.rate, 'ECB', answer.date);
        setHint({ kind: 'bank', date: answer.date });
      })
      .catch((err: unknown) => {
        if (cancelled || typed.current) return;
        // 404: no rate for that day (MDL, a day too far back); offline: the same for the form.
        const remembered = rememberedRate(currency, readerCurrency);
        set(remembered, remembered ? 'MANUAL' : undefined);
        setHint(remembered ? { kind: 'remembered' } : { kind: 'unknown' });
        if (!(err instanceof ApiError) || err.status !== 404) console.warn('Exchange rate not loaded', err);
      });
    return () => {
      cancelled = true;
    };
  }, [currency, readerCurrency, day, foreign, setValue]);

  const rateField = form.field(name('exchangeRate'), 'number');
  // The currency the rate shown is to: an opened record's own rate is to the owner's; a proposed or
  // typed one to the reader's (the server converts it to the owner's).
  const rateTo = hint?.kind === 'record' && ownerCurrency ? ownerCurrency : readerCurrency;
  // What the rate is, then where the proposed one came from.
  const source =
    hint?.kind === 'bank'
      ? t('units.rateFromBank', { date: formatDate(hint.date, lng) })
      : hint?.kind === 'receipt'
        ? t('units.rateFromReceipt')
        : hint?.kind === 'remembered'
          ? t('units.rateRemembered', { from: currency, to: readerCurrency })
          : hint?.kind === 'unknown'
            ? t('units.rateUnknown')
            : '';
  const rateHint = `${t('units.exchangeRateHint', { from: currency, to: rateTo })} ${source}`.trim();
  const paid = paidField ? values[paidField] : undefined;
  const rate = values.exchangeRate;
  const converted =
    foreign && typeof paid === 'number' && paid > 0 && typeof rate === 'number' && rate > 0
      ? t('ocr.paidAndConverted', {
          paid: formatMoney(paid, lng, currency),
          converted: formatMoney(paid * rate, lng, rateTo),
        })
      : null;
  const row = (
    <div className="form__row">
      <SelectField label={label} hint={check} {...form.field(name('currency'))}>
        {CURRENCIES.map((c) => (
          <option key={c} value={c}>
            {t(`currencies.${c}`)}
          </option>
        ))}
      </SelectField>
      {foreign ? (
        <TextField
          label={t('units.exchangeRate')}
          type="number"
          step="any"
          inputMode="decimal"
          hint={rateHint}
          {...rateField}
          onChange={(e) => {
            // A typed rate is the user's own (MANUAL), kept for the next record in this pair.
            typed.current = true;
            setHint({ kind: 'typed' });
            form.setValue(name('rateSource'), 'MANUAL' as never);
            form.setValue(name('rateDate'), undefined as never);
            return rateField.onChange(e);
          }}
        />
      ) : null}
    </div>
  );
  if (!paidField) return row;
  return (
    <>
      {row}
      {converted ? (
        <p className="form__converted" data-testid="paid-converted" aria-live="polite">
          {converted}
        </p>
      ) : null}
    </>
  );
}
