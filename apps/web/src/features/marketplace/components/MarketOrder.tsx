import { type CurrencyCode, LISTING_SORTS, ListingFilters, type ListingSort } from '@evdra/domain';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../../components/Field';

/** How the market is ordered and the price band, in the reader's currency (the server compares euros). */
export interface MarketOrderValue {
  sort: ListingSort;
  priceMin?: number;
  priceMax?: number;
}

interface MarketOrderProps {
  value: MarketOrderValue;
  currency: CurrencyCode;
  onChange: (value: MarketOrderValue) => void;
}

const typed = (text: string) => (text.trim() === '' ? undefined : text.trim().replace(',', '.'));

/** The sort select (applies at once) and the price band form (checked with the API's own schema). */
export function MarketOrder({ value, currency, onChange }: MarketOrderProps) {
  const { t } = useTranslation();
  const [min, setMin] = useState(value.priceMin?.toString() ?? '');
  const [max, setMax] = useState(value.priceMax?.toString() ?? '');
  const [errors, setErrors] = useState<{ priceMin?: string; priceMax?: string }>({});

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = ListingFilters.safeParse({ priceMin: typed(min), priceMax: typed(max) });
    if (!parsed.success) {
      const found: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'priceMax' ? 'priceMax' : 'priceMin';
        found[field] = t(issue.code === 'custom' ? 'market.band.order' : 'market.band.invalid');
      }
      setErrors(found);
      return;
    }
    setErrors({});
    onChange({ sort: value.sort, priceMin: parsed.data.priceMin, priceMax: parsed.data.priceMax });
  };

  return (
    <form className="market-order" onSubmit={onSubmit} noValidate>
      <SelectField
        label={t('market.sort.label')}
        value={value.sort}
        onValueChange={(sort) => onChange({ ...value, sort: sort as ListingSort })}
      >
        {LISTING_SORTS.map((s) => (
          <option key={s} value={s}>
            {t(`market.sort.${s}`)}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('market.band.min', { currency })}
        inputMode="decimal"
        value={min}
        onValueChange={setMin}
        error={errors.priceMin}
      />
      <TextField
        label={t('market.band.max', { currency })}
        inputMode="decimal"
        value={max}
        onValueChange={setMax}
        error={errors.priceMax}
      />
      <button type="submit" className="btn btn--secondary">
        {t('market.band.apply')}
      </button>
    </form>
  );
}
